package dev.kiln.sample.bench;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.MxApi;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The floor: the same symbol as Kiln's classifier built and driven through MXNet's C API alone
 * (Kiln's JNA binding layer, nothing above it). One executor is bound once with {@code grad_req}
 * write; each step copies the batch and its labels in, runs forward (training) and backward, and
 * calls {@code sgd_update} on each of the four weights. Same kernels, no framework.
 */
final class FloorLoop implements TrainLoop {
  /**
   * Work that Kiln's {@code Classifier.trainBatch} does and the floor does not, added one at a time
   * to find where Kiln's time goes.
   */
  enum Extra {
    /** Copy the probabilities out after the update and compute loss and accuracy. */
    SCORE,
    /** Format the update's attribute values with {@code Float.toString} every step. */
    ATTR_STRINGS,
    /** A fresh float label array per step, each label range-checked. */
    LABEL_ARRAY
  }

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
  private final Set<Extra> extras;
  private Pointer output;
  private Pointer exec;
  private double scoreSink;

  FloorLoop(int batch, long seed) {
    this(batch, seed, EnumSet.noneOf(Extra.class));
  }

  FloorLoop(int batch, long seed, Set<Extra> extras) {
    this.batch = batch;
    this.extras = extras.isEmpty() ? EnumSet.noneOf(Extra.class) : EnumSet.copyOf(extras);
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
      Mx.check(
          api.MXExecutorBindEX(
              symbol,
              Mx.CPU,
              0,
              0,
              null,
              null,
              null,
              args.size(),
              argArrays,
              gradArrays,
              reqs,
              0,
              new Pointer[0],
              null,
              bound),
          "MXExecutorBindEX");
      exec = bound.getValue();
      IntByReference n = new IntByReference();
      PointerByReference outs = new PointerByReference();
      Mx.check(api.MXExecutorOutputs(exec, n, outs), "MXExecutorOutputs");
      output = outs.getValue().getPointer(0);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void step(float[] features, int[] labels) {
    Mx.check(api.MXNDArraySyncCopyFromCPU(data, features, (long) batch * FEATURES), "copy data");
    float[] y = labelValues;
    if (extras.contains(Extra.LABEL_ARRAY)) {
      y = new float[batch];
      for (int i = 0; i < batch; i++) {
        if (labels[i] < 0 || labels[i] >= CLASSES) {
          throw new IllegalArgumentException("label " + labels[i]);
        }
      }
    }
    for (int i = 0; i < batch; i++) {
      y[i] = labels[i];
    }
    Mx.check(api.MXNDArraySyncCopyFromCPU(label, y, batch), "copy labels");
    Mx.check(api.MXExecutorForward(exec, 1), "MXExecutorForward");
    Mx.check(api.MXExecutorBackwardEx(exec, 0, NO_HEADS, 1), "MXExecutorBackwardEx");
    String[] vals = SGD_VALS;
    if (extras.contains(Extra.ATTR_STRINGS)) {
      vals = new String[] {Float.toString(0.1f), Float.toString(0f), Float.toString(1f)};
    }
    for (int p = 0; p < sgdInputs.size(); p++) {
      numOutputs.setValue(1);
      Mx.check(
          api.MXImperativeInvoke(
              sgd,
              2,
              sgdInputs.get(p),
              numOutputs,
              sgdOutputs.get(p),
              SGD_KEYS.length,
              SGD_KEYS,
              vals),
          "sgd_update");
    }
    if (extras.contains(Extra.SCORE)) {
      scoreSink += score(labels);
    }
  }

  /** The stages of {@link #stepStaged}. */
  static final String[] STAGES = {"copy in", "forward", "backward", "4 x sgd_update"};

  /**
   * One step with MXNet made synchronous after every stage, adding each stage's nanoseconds to
   * {@code nanos} (one slot per {@link #STAGES} entry): where the floor's own time goes.
   */
  void stepStaged(float[] features, int[] labels, long[] nanos) {
    long t0 = System.nanoTime();
    Mx.check(api.MXNDArraySyncCopyFromCPU(data, features, (long) batch * FEATURES), "copy data");
    for (int i = 0; i < batch; i++) {
      labelValues[i] = labels[i];
    }
    Mx.check(api.MXNDArraySyncCopyFromCPU(label, labelValues, batch), "copy labels");
    long t1 = System.nanoTime();
    Mx.check(api.MXExecutorForward(exec, 1), "MXExecutorForward");
    sync();
    long t2 = System.nanoTime();
    Mx.check(api.MXExecutorBackwardEx(exec, 0, NO_HEADS, 1), "MXExecutorBackwardEx");
    sync();
    long t3 = System.nanoTime();
    for (int p = 0; p < sgdInputs.size(); p++) {
      numOutputs.setValue(1);
      Mx.check(
          api.MXImperativeInvoke(
              sgd,
              2,
              sgdInputs.get(p),
              numOutputs,
              sgdOutputs.get(p),
              SGD_KEYS.length,
              SGD_KEYS,
              SGD_VALS),
          "sgd_update");
    }
    sync();
    long t4 = System.nanoTime();
    nanos[0] += t1 - t0;
    nanos[1] += t2 - t1;
    nanos[2] += t3 - t2;
    nanos[3] += t4 - t3;
  }

  /** What {@code Classifier.trainBatch} does after the update: loss and accuracy in Java. */
  private double score(int[] labels) {
    float[] probs = new float[batch * CLASSES];
    Mx.check(api.MXNDArraySyncCopyToCPU(output, probs, probs.length), "copy out");
    double loss = 0;
    int correct = 0;
    for (int i = 0; i < batch; i++) {
      int best = 0;
      for (int c = 1; c < CLASSES; c++) {
        if (probs[i * CLASSES + c] > probs[i * CLASSES + best]) {
          best = c;
        }
      }
      if (best == labels[i]) {
        correct++;
      }
      loss -= Math.log(Math.max(probs[i * CLASSES + labels[i]], 1e-12f));
    }
    return loss + correct;
  }

  @Override
  public void sync() {
    Mx.check(api.MXNDArrayWaitAll(), "MXNDArrayWaitAll");
  }

  @Override
  public void close() {
    if (output != null) {
      api.MXNDArrayFree(output);
      output = null;
    }
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
   * {@code SoftmaxOutput(FullyConnected(relu(FullyConnected(pixels))))}, named as Kiln names it,
   * with the same attributes.
   */
  private Pointer buildSymbol() {
    Pointer pixels = variable("pixels");
    Pointer hidden =
        op(
            "FullyConnected",
            "hidden",
            new String[] {"num_hidden", "no_bias", "flatten"},
            new String[] {"128", "False", "True"},
            new String[] {"data", "weight", "bias"},
            pixels,
            variable("hidden_weight"),
            variable("hidden_bias"));
    Pointer relu =
        op(
            "Activation",
            "hidden_relu",
            new String[] {"act_type"},
            new String[] {"relu"},
            new String[] {"data"},
            hidden);
    Pointer logits =
        op(
            "FullyConnected",
            "logits",
            new String[] {"num_hidden", "no_bias", "flatten"},
            new String[] {"10", "False", "True"},
            new String[] {"data", "weight", "bias"},
            relu,
            variable("logits_weight"),
            variable("logits_bias"));
    return op(
        "SoftmaxOutput",
        "probs",
        new String[] {"normalization", "preserve_shape"},
        new String[] {"batch", "True"},
        new String[] {"data", "label"},
        logits,
        variable("probs_label"));
  }

  private Pointer variable(String name) {
    PointerByReference ref = new PointerByReference();
    Mx.check(api.MXSymbolCreateVariable(name, ref), "MXSymbolCreateVariable");
    symbols.add(ref.getValue());
    return ref.getValue();
  }

  private Pointer op(
      String op, String name, String[] keys, String[] vals, String[] argNames, Pointer... args) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        api.MXSymbolCreateAtomicSymbol(Mx.op(op), keys.length, keys, vals, ref),
        "MXSymbolCreateAtomicSymbol");
    symbols.add(ref.getValue());
    Mx.check(
        api.MXSymbolCompose(ref.getValue(), name, args.length, argNames, args), "MXSymbolCompose");
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
    Mx.check(
        api.MXNDArrayCreateEx(shape, shape.length, Mx.CPU, 0, 0, Mx.FLOAT32, ref),
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

  /** Xavier uniform as MXNet's default: {@code U(-s, s)}, {@code s = sqrt(6 / (in + out))}. */
  private static void xavier(int[] shape, float[] values, SplittableRandom rng) {
    double scale = Math.sqrt(3.0 / ((shape[0] + shape[1]) / 2.0));
    for (int i = 0; i < values.length; i++) {
      values[i] = (float) ((rng.nextDouble() * 2 - 1) * scale);
    }
  }
}
