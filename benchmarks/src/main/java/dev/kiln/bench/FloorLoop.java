package dev.kiln.bench;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The floor: a workload's symbol written by hand ({@link FloorNet}) and driven through MXNet's C
 * API alone (Kiln's JNA interface, nothing above it). One executor is bound once with {@code
 * grad_req} write; each step copies the batch and its labels in, runs forward (training) and
 * backward, and calls {@code sgd_update} (learning rate 0.1) on each trained parameter. Same
 * kernels, no framework. Without updates it is "forward+backward only": the kernel limit with the
 * update folded away.
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

  /** The stages of {@link #stepStaged}. */
  static final String[] STAGES = {"copy in", "forward", "backward", "sgd_update per parameter"};

  private static final String[] SGD_KEYS = {"lr", "wd", "rescale_grad"};
  private static final String[] SGD_VALS = {"0.1", "0.0", "1.0"};
  private static final Pointer[] NO_HEADS = new Pointer[0];
  private static final int CLASSES = 10;

  private final FloorApi mx;
  private final int batch;
  private final long features;
  private final boolean update;
  private final FloorNet.Symbols symbols;
  private final List<Pointer> arrays = new ArrayList<>();
  private final Pointer data;
  private final Pointer label;
  private final float[] labelValues;
  private final Pointer sgd;
  // Native blocks MXNet reads on every sgd_update call: held here so they stay reachable.
  private final List<Memory> sgdInputs = new ArrayList<>();
  private final List<Memory> sgdOutputBlocks = new ArrayList<>();
  private final List<PointerByReference> sgdOutputs = new ArrayList<>();
  private final IntByReference numOutputs = new IntByReference(1);
  private final Set<Extra> extras;
  private Pointer output;
  private Pointer exec;
  private double scoreSink;
  private boolean copyEveryStep = true;
  private boolean copied;

  /** The floor of {@code net} at {@code batch}, updating each step unless {@code update} off. */
  FloorLoop(FloorApi mx, FloorNet net, int batch, long seed, boolean update) {
    this(mx, net, batch, seed, update, EnumSet.noneOf(Extra.class));
  }

  /** As the other constructor, doing {@code extras} too each step. */
  FloorLoop(FloorApi mx, FloorNet net, int batch, long seed, boolean update, Set<Extra> extras) {
    this.mx = mx;
    this.batch = batch;
    this.update = update;
    this.extras = extras.isEmpty() ? EnumSet.noneOf(Extra.class) : EnumSet.copyOf(extras);
    this.labelValues = new float[batch];
    this.symbols = new FloorNet.Symbols(mx);
    this.sgd = mx.op("sgd_update");
    Pointer dataArray = null;
    Pointer labelArray = null;
    long featureCount = 0;
    try {
      Pointer symbol = net.build(symbols);
      String[] args = names(symbol, true);
      Pointer[] argArrays = new Pointer[args.length];
      Pointer[] gradArrays = new Pointer[args.length];
      int[] reqs = new int[args.length];
      SplittableRandom rng = new SplittableRandom(seed);
      for (int a = 0; a < args.length; a++) {
        String name = args[a];
        int[] shape = net.shape(name, batch);
        argArrays[a] = array(shape);
        if (a == 0) {
          dataArray = argArrays[a];
          featureCount = size(shape);
        } else if (name.equals("probs_label")) {
          labelArray = argArrays[a];
        } else {
          fill(argArrays[a], name, shape, rng);
          if (net.trainable(name)) {
            gradArrays[a] = array(shape);
            reqs[a] = 1;
            sgdInputs.add(FloorApi.block(new Pointer[] {argArrays[a], gradArrays[a]}));
            // A PointerByReference does not keep its block reachable: the list does.
            Memory out = FloorApi.block(new Pointer[] {argArrays[a]});
            sgdOutputBlocks.add(out);
            sgdOutputs.add(new PointerByReference(out));
          }
        }
      }
      String[] aux = names(symbol, false);
      Pointer[] auxArrays = new Pointer[aux.length];
      for (int a = 0; a < aux.length; a++) {
        int[] shape = net.shape(aux[a], batch);
        auxArrays[a] = array(shape);
        fill(auxArrays[a], aux[a], shape, rng);
      }
      this.data = dataArray;
      this.label = labelArray;
      this.features = featureCount;
      PointerByReference bound = new PointerByReference();
      mx.check(
          mx.api()
              .MXExecutorBindEX(
                  symbol,
                  1,
                  0,
                  0,
                  null,
                  null,
                  null,
                  args.length,
                  argArrays,
                  gradArrays,
                  reqs,
                  aux.length,
                  auxArrays,
                  null,
                  bound),
          "MXExecutorBindEX");
      exec = bound.getValue();
      IntByReference n = new IntByReference();
      PointerByReference outs = new PointerByReference();
      mx.check(mx.api().MXExecutorOutputs(exec, n, outs), "MXExecutorOutputs");
      output = outs.getValue().getPointer(0);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * This loop copying its inputs in on the first step only, the same batch every step after: the
   * kernels' limit without the copy-in, whose synchronous copy waits for the previous step's
   * readers of the input array.
   */
  FloorLoop copyOnce() {
    copyEveryStep = false;
    return this;
  }

  @Override
  public void step(float[] x, int[] labels) {
    if (copyEveryStep || !copied) {
      copyIn(x, labels);
      copied = true;
    }
    mx.check(mx.api().MXExecutorForward(exec, 1), "MXExecutorForward");
    mx.check(mx.api().MXExecutorBackwardEx(exec, 0, NO_HEADS, 1), "MXExecutorBackwardEx");
    if (update) {
      String[] vals = SGD_VALS;
      if (extras.contains(Extra.ATTR_STRINGS)) {
        vals = new String[] {Float.toString(0.1f), Float.toString(0f), Float.toString(1f)};
      }
      updateAll(vals);
    }
    if (extras.contains(Extra.SCORE)) {
      scoreSink += score(labels);
    }
  }

  private void copyIn(float[] x, int[] labels) {
    if (x.length != features || labels.length != batch) {
      throw new IllegalArgumentException(
          "a batch of "
              + batch
              + " needs "
              + features
              + " features, got "
              + x.length
              + " and "
              + labels.length
              + " labels");
    }
    mx.check(mx.api().MXNDArraySyncCopyFromCPU(data, x, features), "copy data");
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
    mx.check(mx.api().MXNDArraySyncCopyFromCPU(label, y, batch), "copy labels");
  }

  private void updateAll(String[] vals) {
    for (int p = 0; p < sgdInputs.size(); p++) {
      numOutputs.setValue(1);
      mx.check(
          mx.api()
              .MXImperativeInvoke(
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
  }

  /**
   * One step with MXNet made synchronous after every stage, adding each stage's nanoseconds to
   * {@code nanos} (one slot per {@link #STAGES} entry): where the floor's own time goes.
   */
  void stepStaged(float[] x, int[] labels, long[] nanos) {
    long t0 = System.nanoTime();
    copyIn(x, labels);
    long t1 = System.nanoTime();
    mx.check(mx.api().MXExecutorForward(exec, 1), "MXExecutorForward");
    sync();
    long t2 = System.nanoTime();
    mx.check(mx.api().MXExecutorBackwardEx(exec, 0, NO_HEADS, 1), "MXExecutorBackwardEx");
    sync();
    long t3 = System.nanoTime();
    if (update) {
      updateAll(SGD_VALS);
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
    mx.check(mx.api().MXNDArraySyncCopyToCPU(output, probs, probs.length), "copy out");
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
    mx.check(mx.api().MXNDArrayWaitAll(), "MXNDArrayWaitAll");
  }

  @Override
  public void close() {
    if (output != null) {
      mx.api().MXNDArrayFree(output);
      output = null;
    }
    if (exec != null) {
      mx.api().MXExecutorFree(exec);
      exec = null;
    }
    for (Pointer a : arrays) {
      mx.api().MXNDArrayFree(a);
    }
    arrays.clear();
    symbols.close();
  }

  private String[] names(Pointer symbol, boolean arguments) {
    IntByReference n = new IntByReference();
    PointerByReference names = new PointerByReference();
    if (arguments) {
      mx.check(mx.api().MXSymbolListArguments(symbol, n, names), "MXSymbolListArguments");
    } else {
      mx.check(
          mx.api().MXSymbolListAuxiliaryStates(symbol, n, names), "MXSymbolListAuxiliaryStates");
    }
    return n.getValue() == 0 ? new String[0] : names.getValue().getStringArray(0, n.getValue());
  }

  private Pointer array(int[] shape) {
    PointerByReference ref = new PointerByReference();
    mx.check(mx.api().MXNDArrayCreateEx(shape, shape.length, 1, 0, 0, 0, ref), "MXNDArrayCreateEx");
    arrays.add(ref.getValue());
    return ref.getValue();
  }

  /**
   * Initial values: Xavier uniform for weights ({@code U(-s, s)}, {@code s = sqrt(6 / (fan in + fan
   * out))}, MXNet's default), U(-0.1, 0.1) for a recurrent layer's parameter vector, one for
   * batch-norm scales and variances, zero for the rest.
   */
  private void fill(Pointer array, String name, int[] shape, SplittableRandom rng) {
    float[] init = new float[size(shape)];
    if (name.endsWith("_weight")) {
      int receptive = 1;
      for (int d = 2; d < shape.length; d++) {
        receptive *= shape[d];
      }
      double scale = Math.sqrt(6.0 / ((shape[0] + shape[1]) * (double) receptive));
      for (int i = 0; i < init.length; i++) {
        init[i] = (float) ((rng.nextDouble() * 2 - 1) * scale);
      }
    } else if (name.endsWith("_parameters")) {
      for (int i = 0; i < init.length; i++) {
        init[i] = (float) ((rng.nextDouble() * 2 - 1) * 0.1);
      }
    } else if (name.endsWith("_gamma") || name.endsWith("_moving_var")) {
      java.util.Arrays.fill(init, 1f);
    }
    mx.check(mx.api().MXNDArraySyncCopyFromCPU(array, init, init.length), "init " + name);
  }

  private static int size(int[] shape) {
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    return n;
  }
}
