package dev.kiln.runtime;

import ai.djl.mxnet.engine.MxNDArray;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.BoundExecutor.GradReq;
import dev.kiln.runtime.exec.ExecArray;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.io.CheckpointException;
import dev.kiln.runtime.mxnet.Mx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The runtime half of a generated {@code XModel}: one graph, one shared set of parameters and
 * gradients, and the executors bound for each set of input shapes seen so far.
 *
 * <p>Generated models hold one and delegate to it; it owns the graph, the parameter store and
 * every executor, and frees them all in {@link #close()}.
 */
public final class ModelRuntime implements AutoCloseable {
  private final String modelName;
  private final Graph graph;
  private final ParameterStore params;
  private final Map<List<Shape>, BoundExecutor> executors = new LinkedHashMap<>();
  private final Sgd plainSgd = new Sgd(1f);
  private BoundExecutor last;
  private Classifier classifier;
  private boolean gradientsOverwritten;
  private boolean training;
  private boolean closed;

  /**
   * Takes ownership of {@code graph}, allocates its parameters and initialises the weights
   * with {@code init} from {@code seed} (biases start at zero).
   */
  public ModelRuntime(String modelName, Graph graph, Init init, long seed) {
    this.modelName = modelName;
    this.graph = graph;
    try {
      this.params = new ParameterStore(graph.params(), graph.auxStates(), graph::isFrozen,
          graph.reorderedWeights());
    } catch (RuntimeException e) {
      graph.close();
      throw e;
    }
    initialize(init, seed);
  }

  private void initialize(Init init, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    for (ParameterStore.Slot slot : params.slots()) {
      float[] values = new float[(int) slot.weight().size()];
      if (slot.spec().kind() == ParamSpec.Kind.WEIGHT) {
        init.fill(slot.spec(), values, rng);
      } else if (slot.spec().kind() == ParamSpec.Kind.GAMMA) {
        java.util.Arrays.fill(values, 1f);
      }
      slot.weight().copyFrom(values);
    }
    params.weightsChanged();
    Mx.seed((int) seed);
  }

  /** The generated model class's simple name, used in messages. */
  public String modelName() {
    return modelName;
  }

  /** The graph (owned by this runtime). */
  public Graph graph() {
    checkOpen();
    return graph;
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
    checkOpen();
    List<InputSpec> specs = graph.inputs();
    if (inputs.length != specs.size()) {
      throw new IllegalArgumentException(modelName + ".forward takes " + specs.size()
          + " inputs " + names(specs) + ", got " + inputs.length);
    }
    List<Shape> shapes = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      shapes.add(checkInput(specs.get(i), inputs[i]));
    }
    BoundExecutor exec = executor(shapes);
    for (int i = 0; i < inputs.length; i++) {
      copyInto(exec.input(i), inputs[i]);
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
   * Back-propagates head gradients (one per output, each of its output's shape) through the last
   * forward pass, which must have run in training mode. Parameter gradients add up until the
   * next {@link #update}; the returned input gradients are those of this call alone.
   */
  public NDArray[] backward(NDArray... headGrads) {
    checkOpen();
    if (last == null) {
      throw new IllegalStateException(modelName + ".backward needs a forward pass first");
    }
    if (!last.lastForwardTrained()) {
      throw new IllegalStateException(modelName + ".backward needs the forward pass to run in "
          + "training mode: call setTraining(true) before forward");
    }
    List<String> outputs = graph.outputs();
    if (headGrads.length != outputs.size()) {
      throw new IllegalArgumentException(modelName + ".backward takes one head gradient per "
          + "output " + outputs + ", got " + headGrads.length);
    }
    for (int i = 0; i < headGrads.length; i++) {
      Tensor head = last.headGrad(i);
      Shape actual = shapeOf(headGrads[i]);
      if (!actual.equals(head.shape())) {
        throw new IllegalArgumentException(modelName + ".backward: head gradient for output '"
            + outputs.get(i) + "' must have the output's shape " + head.shape() + ", got "
            + actual);
      }
      checkFloat32("head gradient for output '" + outputs.get(i) + "'", headGrads[i]);
      copyInto(head, headGrads[i]);
    }
    if (gradientsOverwritten) {
      params.zeroGrads();
      gradientsOverwritten = false;
    }
    last.backward();
    NDManager manager = headGrads[0].getManager();
    NDArray[] grads = new NDArray[graph.inputs().size()];
    for (int i = 0; i < grads.length; i++) {
      grads[i] = toNDArray(manager, last.inputGrad(i));
    }
    return grads;
  }

  /** One plain SGD step with learning rate {@code lr}, then the gradients are zeroed. */
  public void update(float lr) {
    plainSgd.learningRate(lr);
    update(plainSgd);
  }

  /**
   * One step of {@code optimizer} on every trainable parameter (those of {@code @Frozen} nodes
   * are left alone), then the gradients are zeroed.
   */
  public void update(Optimizer optimizer) {
    checkOpen();
    optimizer.step(params.fusedSlots());
    params.weightsChanged();
    params.zeroGrads();
    gradientsOverwritten = false;
  }

  /**
   * The classifier view of this model (see {@link Classifier}), made on first use from the graph
   * {@code classifierGraph} builds; it trains this model's own parameters.
   */
  public Classifier classifier(Supplier<Graph> classifierGraph) {
    checkOpen();
    if (classifier == null) {
      classifier = new Classifier(this, classifierGraph.get());
    }
    return classifier;
  }

  /** Called when a training step overwrote the gradient arrays and consumed them. */
  void gradientsOverwritten() {
    gradientsOverwritten = true;
  }

  /** The shared parameter store. */
  ParameterStore store() {
    checkOpen();
    return params;
  }

  /**
   * The executor bound for {@code inputShapes} (complete, declaration order), binding it on
   * first use. It stays owned by this runtime.
   */
  public BoundExecutor executor(List<Shape> inputShapes) {
    checkOpen();
    List<InputSpec> specs = graph.inputs();
    if (inputShapes.size() != specs.size()) {
      throw new IllegalArgumentException(modelName + " takes " + specs.size() + " inputs "
          + names(specs) + ", got " + inputShapes.size() + " shapes");
    }
    for (int i = 0; i < specs.size(); i++) {
      Shape s = inputShapes.get(i);
      if (!s.isComplete() || !specs.get(i).shape().accepts(s)) {
        throw new IllegalArgumentException(modelName + " input '" + specs.get(i).name()
            + "': expected shape " + specs.get(i).shape() + ", got " + s);
      }
    }
    BoundExecutor exec = executors.get(inputShapes);
    if (exec == null) {
      exec = new BoundExecutor(graph, inputShapes, List.of(), params, GradReq.ADD,
          GradReq.WRITE);
      executors.put(List.copyOf(inputShapes), exec);
    }
    return exec;
  }

  /** How many executors are bound (one per distinct set of input shapes seen). */
  public int executorCount() {
    return executors.size();
  }

  /** Typed access to parameter {@code name}. */
  public Parameter param(String name) {
    slot(name);
    return new Parameter(this, name);
  }

  /** The arrays of parameter {@code name}: its weight and gradient, shared by all executors. */
  public ParameterStore.Slot slot(String name) {
    checkOpen();
    ParameterStore.Slot s = params.get(name);
    if (s == null) {
      throw new IllegalArgumentException(modelName + " has no parameter '" + name + "'");
    }
    return s;
  }

  /** Parameter {@code name}'s weight array as a generated {@code XExec} exposes it. */
  public ExecArray weightArray(String name) {
    slot(name);
    return ExecArray.weight(params, name);
  }

  /** Parameter {@code name}'s gradient array as a generated {@code XExec} exposes it. */
  public ExecArray gradArray(String name) {
    slot(name);
    return ExecArray.grad(params, name);
  }

  /** Auxiliary state {@code name}'s array as a generated {@code XExec} exposes it. */
  public ExecArray auxArray(String name) {
    auxSlot(name);
    return ExecArray.aux(params, name);
  }

  /** The parameter slots, in MXNet's argument order. */
  public List<ParameterStore.Slot> slots() {
    checkOpen();
    return params.slots();
  }

  /**
   * What an optimizer step updates: one slot spanning every trainable parameter (see {@link
   * ParameterStore#fusedSlots()}). Every update path steps exactly this.
   */
  public List<ParameterStore.Slot> updateSlots() {
    checkOpen();
    return params.fusedSlots();
  }

  /**
   * The parameters an optimizer changes, one by one: every parameter except those of {@code
   * @Frozen} nodes, in MXNet's argument order. Their arrays are views of {@link #updateSlots()}.
   */
  public List<ParameterStore.Slot> trainableSlots() {
    checkOpen();
    return params.slots().stream().filter(s -> !graph.isFrozen(s.name())).toList();
  }

  /** Whether parameter {@code name} belongs to a {@code @Frozen} node. */
  public boolean isFrozen(String name) {
    slot(name);
    return graph.isFrozen(name);
  }

  /**
   * Typed access to auxiliary state {@code name} (e.g. {@code bn_moving_mean}): read and write
   * like a parameter; it has no gradient.
   */
  public Parameter auxState(String name) {
    auxSlot(name);
    return new Parameter(this, name, true);
  }

  /** The array of auxiliary state {@code name}, shared by all executors. */
  public ParameterStore.AuxSlot auxSlot(String name) {
    checkOpen();
    ParameterStore.AuxSlot s = params.aux(name);
    if (s == null) {
      throw new IllegalArgumentException(modelName + " has no auxiliary state '" + name + "'");
    }
    return s;
  }

  /** The auxiliary states, in MXNet's order. */
  public List<ParameterStore.AuxSlot> auxSlots() {
    checkOpen();
    return params.auxSlots();
  }

  /** The symbol as MXNet JSON. */
  public String symbolJson() {
    return graph().toJson();
  }

  /**
   * Writes an MXNet checkpoint: {@code prefix-symbol.json} and {@code prefix-0000.params} (an
   * NDArray list keyed {@code arg:<name>} for parameters and {@code aux:<name>} for
   * auxiliary states, see {@link Checkpoint}). Each file is written beside
   * its target and renamed into place, so a crash leaves the old file or the new one, never half
   * of one.
   *
   * @throws UncheckedIOException if a file cannot be written
   */
  public void save(Path prefix) {
    checkOpen();
    try {
      Checkpoint.save(prefix, symbolJson(), checkpointArrays());
    } catch (IOException e) {
      throw new UncheckedIOException(modelName + ": cannot write checkpoint " + prefix + ": "
          + describe(e), e);
    }
  }

  /**
   * Reads the parameters (and auxiliary states) of checkpoint {@code prefix} into this model. Every parameter of the
   * model must be in the file with its exact shape, and the file may hold nothing else; nothing
   * is changed unless all of that holds.
   *
   * @throws UncheckedIOException if the file is missing, unreadable or does not fit (its cause is
   *     then a {@link CheckpointException} naming the file and the problem)
   */
  public void loadParams(Path prefix) {
    loadParams(prefix, false);
  }

  /**
   * As {@link #loadParams(Path)}; when {@code lenient}, arrays in the file that the model does
   * not have are skipped instead of being an error.
   */
  public void loadParams(Path prefix, boolean lenient) {
    checkOpen();
    try {
      Checkpoint.load(prefix, checkpointArrays(), lenient);
    } catch (IOException e) {
      throw new UncheckedIOException(modelName + ": cannot load checkpoint " + prefix + ": "
          + describe(e), e);
    } finally {
      params.weightsChanged();
    }
  }

  /** What a checkpoint of this model holds: {@code arg:<name>} for every parameter. */
  private Map<String, Tensor> checkpointArrays() {
    Map<String, Tensor> arrays = new LinkedHashMap<>();
    for (ParameterStore.Slot s : params.slots()) {
      arrays.put(Checkpoint.argKey(s.name()), s.weight());
    }
    for (ParameterStore.AuxSlot a : params.auxSlots()) {
      arrays.put(Checkpoint.auxKey(a.name()), a.value());
    }
    return arrays;
  }

  /** A checkpoint error's own message; otherwise the kind of I/O error and its message. */
  private static String describe(IOException e) {
    if (e instanceof CheckpointException) {
      return e.getMessage();
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
  }

  /** Frees every executor, the parameters and the graph. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (classifier != null) {
      classifier.close();
    }
    for (BoundExecutor e : executors.values()) {
      e.close();
    }
    executors.clear();
    last = null;
    plainSgd.close();
    params.close();
    graph.close();
  }

  /** Whether {@link #close()} has run. */
  public boolean isClosed() {
    return closed;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(modelName + " is closed");
    }
  }

  private Shape checkInput(InputSpec spec, NDArray array) {
    checkFloat32("input '" + spec.name() + "'", array);
    Shape actual = shapeOf(array);
    if (!spec.shape().accepts(actual)) {
      throw new IllegalArgumentException(modelName + " input '" + spec.name()
          + "': expected shape " + spec.shape() + ", got " + actual);
    }
    return actual;
  }

  private void checkFloat32(String what, NDArray array) {
    if (array.getDataType() != DataType.FLOAT32) {
      throw new IllegalArgumentException(modelName + " " + what + " must be float32, got "
          + array.getDataType());
    }
  }

  private Shape shapeOf(NDArray array) {
    long[] s = array.getShape().getShape();
    int[] dims = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      if (s[i] <= 0 || s[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(modelName + ": array of shape " + array.getShape()
            + " has an empty or oversized dimension");
      }
      dims[i] = (int) s[i];
    }
    return Shape.of(dims);
  }

  private static void copyInto(Tensor target, NDArray source) {
    if (source instanceof MxNDArray mx) {
      target.copyFrom(mx.getHandle());
    } else {
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
