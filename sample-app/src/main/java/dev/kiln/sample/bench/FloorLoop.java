package dev.kiln.sample.bench;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.MxApi;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The floor: the same symbol as Kiln's classifier built and driven through MXNet's C API alone
 * (Kiln's JNA binding layer, nothing above it). One executor is bound once with {@code grad_req}
 * write; each step copies the batch and its labels in, runs forward (training) and backward, and
 * calls {@code sgd_update} on each of the four weights. Same kernels, no framework.
 */
final class FloorLoop implements TrainLoop {
  private static final String[] SGD_KEYS = {"lr", "wd", "rescale_grad"};
  private static final String[] SGD_VALS = {"0.1", "0.0", "1.0"};
  private static final Pointer[] NO_HEADS = new Pointer[0];
  private static final int FEATURES = 784;
  private static final int HIDDEN = 128;
  private static final int CLASSES = 10;

  private final MxApi api = Mx.api();
  private final int batch;
  private final List<Pointer> symbols = new ArrayList<>();
  private final List<Pointer> arrays = new ArrayList<>();
  private final Pointer data;
  private final Pointer label;
  private final float[] labelValues;
  private final Pointer sgd = Mx.op("sgd_update");
  // Native blocks MXNet reads on every sgd_update call: held here so they stay reachable.
  private final List<Memory> sgdInputs = new ArrayList<>();
  private final List<Memory> sgdOutputBlocks = new ArrayList<>();
  private final List<PointerByReference> sgdOutputs = new ArrayList<>();
  private final IntByReference numOutputs = new IntByReference(1);
  private Pointer exec;

  FloorLoop(int batch, long seed) {
    this.batch = batch;
    this.labelValues = new float[batch];
    try {
      Pointer symbol = buildSymbol();
      List<String> args = listArguments(symbol);
      Pointer[] argArrays = new Pointer[args.size()];
      Pointer[] gradArrays = new Pointer[args.size()];
      int[] reqs = new int[args.size()];
      SplittableRandom rng = new SplittableRandom(seed);
      Pointer dataArray = null;
      Pointer labelArray = null;
      for (int a = 0; a < args.size(); a++) {
        String name = args.get(a);
        int[] shape = shapeOf(name);
        argArrays[a] = array(shape);
        switch (name) {
          case "pixels" -> dataArray = argArrays[a];
          case "probs_label" -> labelArray = argArrays[a];
          default -> {
            float[] init = new float[size(shape)];
            if (name.endsWith("_weight")) {
              xavier(shape, init, rng);
            }
            Mx.check(api.MXNDArraySyncCopyFromCPU(argArrays[a], init, init.length), "init");
            gradArrays[a] = array(shape);
            reqs[a] = 1;
            Memory in = Mx.handleBlock(new Pointer[] {argArrays[a], gradArrays[a]});
            sgdInputs.add(in);
            // A PointerByReference does not keep its block reachable: the list does.
            Memory out = Mx.handleBlock(new Pointer[] {argArrays[a]});
            sgdOutputBlocks.add(out);
            sgdOutputs.add(new PointerByReference(out));
          }
        }
      }
      this.data = dataArray;
      this.label = labelArray;
      PointerByReference bound = new PointerByReference();
      Mx.check(api.MXExecutorBindEX(symbol, Mx.CPU, 0, 0, null, null, null, args.size(),
          argArrays, gradArrays, reqs, 0, new Pointer[0], null, bound), "MXExecutorBindEX");
      exec = bound.getValue();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void step(float[] features, int[] labels) {
    Mx.check(api.MXNDArraySyncCopyFromCPU(data, features, (long) batch * FEATURES), "copy data");
    for (int i = 0; i < batch; i++) {
      labelValues[i] = labels[i];
    }
    Mx.check(api.MXNDArraySyncCopyFromCPU(label, labelValues, batch), "copy labels");
    Mx.check(api.MXExecutorForward(exec, 1), "MXExecutorForward");
    Mx.check(api.MXExecutorBackwardEx(exec, 0, NO_HEADS, 1), "MXExecutorBackwardEx");
    for (int p = 0; p < sgdInputs.size(); p++) {
      numOutputs.setValue(1);
      Mx.check(api.MXImperativeInvoke(sgd, 2, sgdInputs.get(p), numOutputs, sgdOutputs.get(p),
          SGD_KEYS.length, SGD_KEYS, SGD_VALS), "sgd_update");
    }
  }

  @Override
  public void sync() {
    Mx.check(api.MXNDArrayWaitAll(), "MXNDArrayWaitAll");
  }

  @Override
  public void close() {
    if (exec != null) {
      api.MXExecutorFree(exec);
      exec = null;
    }
    for (Pointer a : arrays) {
      api.MXNDArrayFree(a);
    }
    arrays.clear();
    for (Pointer s : symbols) {
      api.MXSymbolFree(s);
    }
    symbols.clear();
  }

  /**
   * {@code SoftmaxOutput(FullyConnected(relu(FullyConnected(pixels))))}, named as Kiln names
   * it, with the same attributes.
   */
  private Pointer buildSymbol() {
    Pointer pixels = variable("pixels");
    Pointer hidden = op("FullyConnected", "hidden",
        new String[] {"num_hidden", "no_bias", "flatten"}, new String[] {"128", "False", "True"},
        new String[] {"data", "weight", "bias"},
        pixels, variable("hidden_weight"), variable("hidden_bias"));
    Pointer relu = op("Activation", "hidden_relu", new String[] {"act_type"},
        new String[] {"relu"}, new String[] {"data"}, hidden);
    Pointer logits = op("FullyConnected", "logits",
        new String[] {"num_hidden", "no_bias", "flatten"}, new String[] {"10", "False", "True"},
        new String[] {"data", "weight", "bias"},
        relu, variable("logits_weight"), variable("logits_bias"));
    return op("SoftmaxOutput", "probs", new String[] {"normalization", "preserve_shape"},
        new String[] {"batch", "True"}, new String[] {"data", "label"},
        logits, variable("probs_label"));
  }

  private Pointer variable(String name) {
    PointerByReference ref = new PointerByReference();
    Mx.check(api.MXSymbolCreateVariable(name, ref), "MXSymbolCreateVariable");
    symbols.add(ref.getValue());
    return ref.getValue();
  }

  private Pointer op(String op, String name, String[] keys, String[] vals, String[] argNames,
      Pointer... args) {
    PointerByReference ref = new PointerByReference();
    Mx.check(api.MXSymbolCreateAtomicSymbol(Mx.op(op), keys.length, keys, vals, ref),
        "MXSymbolCreateAtomicSymbol");
    symbols.add(ref.getValue());
    Mx.check(api.MXSymbolCompose(ref.getValue(), name, args.length, argNames, args),
        "MXSymbolCompose");
    return ref.getValue();
  }

  private List<String> listArguments(Pointer symbol) {
    IntByReference n = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(api.MXSymbolListArguments(symbol, n, names), "MXSymbolListArguments");
    return List.of(Mx.strings(names, n.getValue()));
  }

  private int[] shapeOf(String argument) {
    return switch (argument) {
      case "pixels" -> new int[] {batch, FEATURES};
      case "hidden_weight" -> new int[] {HIDDEN, FEATURES};
      case "hidden_bias" -> new int[] {HIDDEN};
      case "logits_weight" -> new int[] {CLASSES, HIDDEN};
      case "logits_bias" -> new int[] {CLASSES};
      case "probs_label" -> new int[] {batch};
      default -> throw new IllegalStateException("unexpected argument " + argument);
    };
  }

  private Pointer array(int[] shape) {
    PointerByReference ref = new PointerByReference();
    Mx.check(api.MXNDArrayCreateEx(shape, shape.length, Mx.CPU, 0, 0, Mx.FLOAT32, ref),
        "MXNDArrayCreateEx");
    arrays.add(ref.getValue());
    return ref.getValue();
  }

  private static int size(int[] shape) {
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    return n;
  }

  /** Xavier uniform as MXNet's default: {@code U(-s, s)}, {@code s = sqrt(3 / avg(fanIn, fanOut))}. */
  private static void xavier(int[] shape, float[] values, SplittableRandom rng) {
    double scale = Math.sqrt(3.0 / ((shape[0] + shape[1]) / 2.0));
    for (int i = 0; i < values.length; i++) {
      values[i] = (float) ((rng.nextDouble() * 2 - 1) * scale);
    }
  }
}
