package dev.kiln.runtime.exec;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.kiln.runtime.exec.BoundExecutor.GradReq;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.DjlArrays;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The execution state of one model: its graph, its one {@link ParameterStore}, and the executors
 * bound for each set of input shapes seen so far, all binding the store's arrays. It runs forward
 * and backward passes on DJL arrays and keeps the gradient bookkeeping of {@link
 * ParameterStore#gradients()}.
 *
 * <p>A model whose custom recurrent cells read {@code Dim.STEPS} steps has a graph per number of
 * steps ({@link Graph#unrolledSteps()}): the first executor bound for a new number of steps builds
 * the graph unrolled over it ({@link Graph#unroll}), which this cache keeps for every later
 * executor of that length. Every graph binds the same parameter store, so all lengths share the
 * weights, gradients and optimizer state.
 *
 * <p>It owns the graphs, the store and every executor, and frees them in {@link #close()}. Not
 * thread-safe: MXNet executors are not.
 */
public final class ExecutorCache implements AutoCloseable {
  private final String modelName;
  private final Graph graph;
  private final ParameterStore params;
  private final CallGuard guard;
  private final Map<List<Shape>, BoundExecutor> executors = new LinkedHashMap<>();
  private final Map<Integer, Graph> unrolled = new LinkedHashMap<>();
  private BoundExecutor last;
  private boolean training;
  private volatile boolean closed;

  /**
   * Takes ownership of {@code graph} and allocates its parameters (zero-filled; see {@link
   * ParameterStore}). On failure the graph is freed too.
   */
  public ExecutorCache(String modelName, Graph graph) {
    this(modelName, graph, 0);
  }

  /**
   * As {@link #ExecutorCache(String, Graph)}, with every array and executor on CPU context {@code
   * cpu(device)} (one replica of a model trained data-parallel on several contexts).
   */
  public ExecutorCache(String modelName, Graph graph, int device) {
    this.modelName = modelName;
    this.graph = graph;
    this.guard = new CallGuard(modelName);
    try {
      this.params =
          new ParameterStore(
              graph.params(),
              graph.auxStates(),
              graph::isFrozen,
              graph.reorderedWeights(),
              graph.relabelledWeights(),
              guard,
              graph.states(),
              device);
    } catch (RuntimeException e) {
      graph.close();
      throw e;
    }
  }

  /** The generated model class's simple name, used in messages. */
  public String modelName() {
    return modelName;
  }

  /**
   * The graph (owned by this cache): the model's inputs, outputs, parameters and states, which
   * every graph of the model shares; for a model with cells over {@code Dim.STEPS}, the one it was
   * created with, unrolled over {@link Graph#unrolledSteps()}.
   */
  public Graph graph() {
    checkOpen();
    return graph;
  }

  /**
   * The graph for inputs of {@code steps} steps (owned by this cache): {@link #graph()} when it
   * serves every number of steps or is unrolled over {@code steps}; otherwise the graph unrolled
   * over {@code steps}, built on first use and kept until {@link #close()}.
   *
   * @throws IllegalArgumentException if {@code steps} is less than 1
   * @throws dev.kiln.runtime.graph.ModelException if a traced step does not fit its shapes
   */
  public Graph graph(int steps) {
    try (CallGuard.Scope call = guard.enter("graph")) {
      checkOpen();
      if (graph.unrolledSteps() == 0 || graph.unrolledSteps() == steps) {
        return graph;
      }
      Graph g = unrolled.get(steps);
      if (g == null) {
        g = graph.unroll(steps);
        unrolled.put(steps, g);
      }
      return g;
    }
  }

  /**
   * How many graphs this cache holds: one, and one more for every number of steps that a model with
   * cells over {@code Dim.STEPS} was unrolled for besides the first.
   */
  public int graphCount() {
    return 1 + unrolled.size();
  }

  /**
   * The graph the latest forward pass ran (see {@link #graph(int)}), or {@link #graph()} before
   * any.
   */
  public Graph latestGraph() {
    checkOpen();
    return last == null ? graph : last.graph();
  }

  /** The shared parameter store (owned by this cache). */
  public ParameterStore store() {
    checkOpen();
    return params;
  }

  /** The model's thread contract, shared by everything made from it. */
  public CallGuard guard() {
    return guard;
  }

  /** Whether {@link #forward} runs in training mode (dropout on, batch statistics). */
  public boolean isTraining() {
    return training;
  }

  /** Chooses the mode of the next forward passes; inference is the default. */
  public void setTraining(boolean training) {
    this.training = training;
  }

  /**
   * Runs the forward pass on the inputs (declaration order, float32, shapes accepted by the
   * declared ones) and returns every output as a new NDArray of the first input's manager.
   */
  public NDArray[] forward(NDArray... inputs) {
    try (CallGuard.Scope call = guard.enter("forward")) {
      return forwardLocked(inputs);
    }
  }

  private NDArray[] forwardLocked(NDArray[] inputs) {
    checkOpen();
    List<InputSpec> specs = graph.inputs();
    if (inputs == null || inputs.length != specs.size()) {
      throw new IllegalArgumentException(
          modelName
              + ".forward takes "
              + specs.size()
              + " inputs "
              + names(specs)
              + ", got "
              + (inputs == null ? "null" : inputs.length));
    }
    List<Shape> shapes = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      if (inputs[i] == null) {
        throw new IllegalArgumentException(
            modelName
                + ".forward: input '"
                + specs.get(i).name()
                + "' ("
                + (i + 1)
                + " of "
                + specs.size()
                + ") is null");
      }
      shapes.add(checkInput(specs.get(i), inputs[i]));
    }
    checkBatchAgrees(shapes);
    BoundExecutor exec = executor(shapes);
    for (int i = 0; i < inputs.length; i++) {
      copyInto(exec.input(i), inputs[i]);
    }
    int bad = exec.firstNonFiniteInput();
    if (bad >= 0) {
      throw new IllegalArgumentException(nonFinite(specs.get(bad), exec.input(bad)));
    }
    exec.forward(training);
    last = exec;
    NDManager manager = inputs[0].getManager();
    NDArray[] out = new NDArray[exec.outputCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = toNDArray(manager, exec.output(i));
    }
    return out;
  }

  /**
   * The message for an input holding a NaN or an infinity: which example and which value. MXNet
   * would carry it through every layer silently (a ReLU even turns NaN into a confident, finite
   * output), so Kiln refuses it.
   */
  private String nonFinite(InputSpec spec, Tensor input) {
    float[] values = input.toFloatArray();
    int at = FiniteCheck.firstNonFinite(values);
    Shape shape = input.shape();
    long perExample = shape.size() / shape.dim(0);
    return modelName
        + " input '"
        + spec.name()
        + "': example "
        + (at / perExample)
        + ", value "
        + (at % perExample)
        + " of "
        + perExample
        + " is "
        + values[at]
        + "; inputs must be finite (a NaN or infinity would silently poison the outputs and, "
        + "in training, the weights)";
  }

  /**
   * Every {@code BATCH} dimension of one call must have the same size: {@code [BATCH, 3]} and
   * {@code [BATCH, 5]} inputs of batch 2 and 3 cannot be one batch.
   */
  private void checkBatchAgrees(List<Shape> shapes) {
    checkAgree(shapes, Shape.BATCH, "BATCH");
    checkAgree(shapes, Shape.STEPS, "STEPS");
  }

  private void checkAgree(List<Shape> shapes, int placeholder, String what) {
    List<InputSpec> specs = graph.inputs();
    int size = -1;
    String first = null;
    for (int i = 0; i < specs.size(); i++) {
      int[] declared = specs.get(i).shape().dims();
      for (int d = 0; d < declared.length; d++) {
        if (declared[d] != placeholder) {
          continue;
        }
        int actual = shapes.get(i).dim(d);
        if (size < 0) {
          size = actual;
          first = "'" + specs.get(i).name() + "' has " + actual + " at axis " + d;
        } else if (actual != size) {
          throw new IllegalArgumentException(
              modelName
                  + " inputs disagree on "
                  + what
                  + ": "
                  + first
                  + ", '"
                  + specs.get(i).name()
                  + "' has "
                  + actual
                  + " at axis "
                  + d
                  + "; every "
                  + what
                  + " dimension of one call must have the same size");
        }
      }
    }
  }

  /**
   * Back-propagates head gradients (one per output, each of its output's shape) through the last
   * forward pass, which must have run in training mode. Parameter gradients add up until an update
   * consumes them; the returned input gradients are those of this call alone.
   */
  public NDArray[] backward(NDArray... headGrads) {
    try (CallGuard.Scope call = guard.enter("backward")) {
      return backwardLocked(headGrads);
    }
  }

  private NDArray[] backwardLocked(NDArray[] headGrads) {
    checkOpen();
    if (last == null) {
      throw new IllegalStateException(modelName + ".backward needs a forward pass first");
    }
    if (!last.lastForwardTrained()) {
      throw new IllegalStateException(
          modelName
              + ".backward needs the forward pass to run in "
              + "training mode: call setTraining(true) before forward");
    }
    List<String> outputs = graph.outputs();
    if (headGrads == null || headGrads.length != outputs.size()) {
      throw new IllegalArgumentException(
          modelName
              + ".backward takes one head gradient per "
              + "output "
              + outputs
              + ", got "
              + (headGrads == null ? "null" : headGrads.length));
    }
    for (int i = 0; i < headGrads.length; i++) {
      Tensor head = last.headGrad(i);
      if (headGrads[i] == null) {
        throw new IllegalArgumentException(
            modelName
                + ".backward: the head gradient for "
                + "output '"
                + outputs.get(i)
                + "' is null");
      }
      Shape actual = shapeOf("head gradient for output '" + outputs.get(i) + "'", headGrads[i]);
      if (!actual.equals(head.shape())) {
        throw new IllegalArgumentException(
            modelName
                + ".backward: head gradient for output '"
                + outputs.get(i)
                + "' must have the output's shape "
                + head.shape()
                + ", got "
                + actual);
      }
      checkFloat32("head gradient for output '" + outputs.get(i) + "'", headGrads[i]);
      copyInto(head, headGrads[i]);
    }
    params.beforeAccumulating();
    last.backward();
    params.gradientsAccumulated();
    NDManager manager = headGrads[0].getManager();
    NDArray[] grads = new NDArray[graph.inputs().size()];
    for (int i = 0; i < grads.length; i++) {
      grads[i] = toNDArray(manager, last.inputGrad(i));
    }
    return grads;
  }

  /**
   * The executor bound for {@code inputShapes} (complete, declaration order), binding it on first
   * use. It stays owned by this cache.
   */
  public BoundExecutor executor(List<Shape> inputShapes) {
    try (CallGuard.Scope call = guard.enter("exec")) {
      return executorLocked(inputShapes);
    }
  }

  private BoundExecutor executorLocked(List<Shape> inputShapes) {
    checkOpen();
    List<InputSpec> specs = graph.inputs();
    if (inputShapes.size() != specs.size()) {
      throw new IllegalArgumentException(
          modelName
              + " takes "
              + specs.size()
              + " inputs "
              + names(specs)
              + ", got "
              + inputShapes.size()
              + " shapes");
    }
    for (int i = 0; i < specs.size(); i++) {
      Shape s = inputShapes.get(i);
      Shape declared = specs.get(i).shape();
      if (s == null) {
        throw new IllegalArgumentException(
            modelName
                + " input '"
                + specs.get(i).name()
                + "': the shape is null; expected one accepted by "
                + declared);
      }
      if (!s.isComplete()) {
        throw new IllegalArgumentException(
            modelName
                + " input '"
                + specs.get(i).name()
                + "': an executor needs a complete shape, with a size for every BATCH, STEPS and "
                + "free dimension, got "
                + s
                + "; for example "
                + declared.withBatch(32).withSteps(10));
      }
      checkShape(specs.get(i).name(), declared, s);
    }
    checkBatchAgrees(inputShapes);
    BoundExecutor exec = executors.get(inputShapes);
    if (exec == null) {
      graph.dimensions().sizes(modelName, specs, inputShapes);
      Graph bound = graph.unrolledSteps() == 0 ? graph : graph(steps(inputShapes));
      exec = new BoundExecutor(bound, inputShapes, List.of(), params, GradReq.ADD, GradReq.WRITE);
      executors.put(List.copyOf(inputShapes), exec);
    }
    return exec;
  }

  /**
   * The number of steps of a call with {@code inputShapes}: the size of its first {@code STEPS}
   * dimension (all agree, see {@link #checkBatchAgrees}), or the graph's own when none has any.
   */
  private int steps(List<Shape> inputShapes) {
    List<InputSpec> specs = graph.inputs();
    for (int i = 0; i < specs.size(); i++) {
      int[] declared = specs.get(i).shape().dims();
      for (int d = 0; d < declared.length; d++) {
        if (declared[d] == Shape.STEPS) {
          return inputShapes.get(i).dim(d);
        }
      }
    }
    return graph.unrolledSteps();
  }

  /** How many executors are bound (one per distinct set of input shapes seen). */
  public int executorCount() {
    return executors.size();
  }

  /**
   * Frees every executor, the parameters and the graph, once no other thread is inside a call (see
   * {@link CallGuard#close}). Idempotent.
   */
  @Override
  public void close() {
    close(() -> {});
  }

  /** As {@link #close()}, running {@code first} (under the guard) before anything is freed. */
  public void close(Runnable first) {
    guard.close(
        () -> {
          first.run();
          release();
        });
  }

  private void release() {
    closed = true;
    for (BoundExecutor e : executors.values()) {
      e.close();
    }
    executors.clear();
    last = null;
    params.close();
    for (Graph g : unrolled.values()) {
      g.close();
    }
    unrolled.clear();
    graph.close();
  }

  /** Whether {@link #close()} has run. */
  public boolean isClosed() {
    return closed;
  }

  /** Throws {@link IllegalStateException} naming the model once it is closed. */
  public void checkOpen() {
    if (closed) {
      throw new IllegalStateException(modelName + " is closed");
    }
  }

  private Shape checkInput(InputSpec spec, NDArray array) {
    checkFloat32("input '" + spec.name() + "'", array);
    Shape actual = shapeOf("input '" + spec.name() + "'", array);
    checkShape(spec.name(), spec.shape(), actual);
    return actual;
  }

  /**
   * Throws naming input {@code name} and where {@code actual} breaks {@code declared}, if it does.
   */
  private void checkShape(String name, Shape declared, Shape actual) {
    String mismatch = declared.mismatch(actual);
    if (!mismatch.isEmpty()) {
      throw new IllegalArgumentException(
          modelName
              + " input '"
              + name
              + "': expected shape "
              + declared
              + ", got "
              + actual
              + " ("
              + mismatch
              + ")");
    }
  }

  private void checkFloat32(String what, NDArray array) {
    if (array.getDataType() != DataType.FLOAT32) {
      throw new IllegalArgumentException(
          modelName + " " + what + " must be float32, got " + array.getDataType());
    }
  }

  private Shape shapeOf(String what, NDArray array) {
    long[] s = array.getShape().getShape();
    int[] dims = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      if (s[i] <= 0) {
        throw new IllegalArgumentException(
            modelName
                + " "
                + what
                + ": every dimension must be "
                + "at least 1, got shape "
                + array.getShape()
                + (i == 0 ? " (an empty batch)" : ""));
      }
      if (s[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            modelName
                + " "
                + what
                + ": dimension "
                + i
                + " of "
                + "shape "
                + array.getShape()
                + " exceeds "
                + Integer.MAX_VALUE);
      }
      dims[i] = (int) s[i];
    }
    return Shape.of(dims);
  }

  private static void copyInto(Tensor target, NDArray source) {
    // An array of DJL's MXNet engine is copied by its handle, MXNet to MXNet.
    if (!DjlArrays.copyInto(target.handle(), source)) {
      ByteBuffer bytes = source.toByteBuffer().order(ByteOrder.nativeOrder());
      target.copyFrom(bytes.asFloatBuffer());
    }
  }

  private static NDArray toNDArray(NDManager manager, Tensor t) {
    int[] dims = t.shape().dims();
    long[] longDims = new long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      longDims[i] = dims[i];
    }
    return manager.create(t.toFloatArray(), new ai.djl.ndarray.types.Shape(longDims));
  }

  private static String names(List<InputSpec> specs) {
    return specs.stream().map(InputSpec::name).toList().toString();
  }
}
