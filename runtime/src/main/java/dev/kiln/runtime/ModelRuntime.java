package dev.kiln.runtime;

import ai.djl.ndarray.NDArray;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import dev.kiln.runtime.exec.ExecutorCache;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.io.CheckpointException;
import dev.kiln.runtime.optim.Optimizer;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The runtime half of a generated {@code XModel}: the facade over Kiln's layers that generated
 * models delegate to. It holds the model's {@link ExecutorCache} (graph, parameters, executors
 * per input shape), initialises the weights, applies updates with an {@link Optimizer}, makes
 * the {@link Classifier} view on demand, and reads and writes checkpoints.
 *
 * <p>It owns everything it holds and frees it all in {@link #close()}. Not thread-safe.
 */
public final class ModelRuntime implements AutoCloseable {
  private final ExecutorCache cache;
  private final Sgd plainSgd = new Sgd(1f);
  private Classifier classifier;
  private boolean closed;

  /**
   * Takes ownership of {@code graph}, allocates its parameters and initialises the weights
   * with {@code init} from {@code seed} (biases start at zero, normalisation scales at one).
   */
  public ModelRuntime(String modelName, Graph graph, Init init, long seed) {
    this.cache = new ExecutorCache(modelName, graph);
    try {
      initialize(init, seed);
    } catch (RuntimeException e) {
      cache.close();
      throw e;
    }
  }

  private void initialize(Init init, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    ParameterStore params = cache.store();
    for (ParameterStore.Slot slot : params.slots()) {
      float[] values = new float[(int) slot.weight().size()];
      if (slot.spec().kind() == ParamSpec.Kind.WEIGHT) {
        init.fill(slot.spec(), values, rng);
      } else if (slot.spec().kind() == ParamSpec.Kind.GAMMA) {
        Arrays.fill(values, 1f);
      }
      slot.weight().copyFrom(values);
    }
    params.weightsChanged();
  }

  /** The generated model class's simple name, used in messages. */
  public String modelName() {
    return cache.modelName();
  }

  /** The graph (owned by this runtime). */
  public Graph graph() {
    return cache.graph();
  }

  /** The execution layer behind this model: graph, parameter store and executors. */
  public ExecutorCache executors() {
    cache.checkOpen();
    return cache;
  }

  /** Whether {@link #forward} runs in training mode (dropout on, batch statistics). */
  public boolean isTraining() {
    return cache.isTraining();
  }

  /** Chooses the mode of the next forward passes; inference is the default. */
  public void setTraining(boolean training) {
    cache.setTraining(training);
  }

  /**
   * Runs the forward pass on the inputs (declaration order, float32, shapes accepted by the
   * declared ones) and returns every output as a new NDArray of the first input's manager.
   */
  public NDArray[] forward(NDArray... inputs) {
    return cache.forward(inputs);
  }

  /**
   * Back-propagates head gradients (one per output, each of its output's shape) through the last
   * forward pass, which must have run in training mode. Parameter gradients add up until the
   * next {@link #update}; the returned input gradients are those of this call alone.
   */
  public NDArray[] backward(NDArray... headGrads) {
    return cache.backward(headGrads);
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
    ParameterStore params = cache.store();
    optimizer.step(params.fusedSlots());
    params.weightsChanged();
    params.zeroGrads();
  }

  /**
   * The classifier view of this model (see {@link Classifier}), made on first use from the graph
   * {@code classifierGraph} builds; it trains this model's own parameters.
   */
  public Classifier classifier(Supplier<Graph> classifierGraph) {
    cache.checkOpen();
    if (classifier == null) {
      classifier = new Classifier(modelName(), cache.store(), classifierGraph.get());
    }
    return classifier;
  }

  /**
   * The executor bound for {@code inputShapes} (complete, declaration order), binding it on
   * first use. It stays owned by this runtime.
   */
  public BoundExecutor executor(List<Shape> inputShapes) {
    return cache.executor(inputShapes);
  }

  /** How many executors are bound (one per distinct set of input shapes seen). */
  public int executorCount() {
    return cache.executorCount();
  }

  /** Typed access to parameter {@code name}. */
  public Parameter param(String name) {
    cache.checkOpen();
    return new Parameter(cache.store(), modelName(), name, false, cache.graph().isFrozen(name));
  }

  /**
   * Typed access to auxiliary state {@code name} (e.g. {@code bn_moving_mean}): read and write
   * like a parameter; it has no gradient.
   */
  public Parameter auxState(String name) {
    cache.checkOpen();
    return new Parameter(cache.store(), modelName(), name, true, false);
  }

  /** Parameter {@code name}'s weight array as a generated {@code XExec} exposes it. */
  public ExecArray weightArray(String name) {
    slot(name);
    return ExecArray.weight(cache.store(), name);
  }

  /** Parameter {@code name}'s gradient array as a generated {@code XExec} exposes it. */
  public ExecArray gradArray(String name) {
    slot(name);
    return ExecArray.grad(cache.store(), name);
  }

  /** Auxiliary state {@code name}'s array as a generated {@code XExec} exposes it. */
  public ExecArray auxArray(String name) {
    auxSlot(name);
    return ExecArray.aux(cache.store(), name);
  }

  /** The arrays of parameter {@code name}: its weight and gradient, shared by all executors. */
  public ParameterStore.Slot slot(String name) {
    ParameterStore.Slot s = cache.store().get(name);
    if (s == null) {
      throw new IllegalArgumentException(modelName() + " has no parameter '" + name + "'");
    }
    return s;
  }

  /** The parameter slots, in MXNet's argument order. */
  public List<ParameterStore.Slot> slots() {
    return cache.store().slots();
  }

  /**
   * What an optimizer step updates: one slot spanning every trainable parameter (see {@link
   * ParameterStore#fusedSlots()}). Every update path steps exactly this.
   */
  public List<ParameterStore.Slot> updateSlots() {
    return cache.store().fusedSlots();
  }

  /**
   * The parameters an optimizer changes, one by one: every parameter except those of {@code
   * @Frozen} nodes, in MXNet's argument order. Their arrays are views of {@link #updateSlots()}.
   */
  public List<ParameterStore.Slot> trainableSlots() {
    Graph graph = cache.graph();
    return slots().stream().filter(s -> !graph.isFrozen(s.name())).toList();
  }

  /** Whether parameter {@code name} belongs to a {@code @Frozen} node. */
  public boolean isFrozen(String name) {
    slot(name);
    return cache.graph().isFrozen(name);
  }

  /** The array of auxiliary state {@code name}, shared by all executors. */
  public ParameterStore.AuxSlot auxSlot(String name) {
    ParameterStore.AuxSlot s = cache.store().aux(name);
    if (s == null) {
      throw new IllegalArgumentException(modelName() + " has no auxiliary state '" + name
          + "'");
    }
    return s;
  }

  /** The auxiliary states, in MXNet's order. */
  public List<ParameterStore.AuxSlot> auxSlots() {
    return cache.store().auxSlots();
  }

  /** The symbol as MXNet JSON. */
  public String symbolJson() {
    return graph().toJson();
  }

  /**
   * Writes an MXNet checkpoint: {@code prefix-symbol.json} and {@code prefix-0000.params} (an
   * NDArray list keyed {@code arg:<name>} for parameters and {@code aux:<name>} for auxiliary
   * states, see {@link Checkpoint}) and {@code prefix-0000.params.sha256} (its SHA-256). Each
   * file is written beside its target and renamed into place, in an order that leaves a
   * loadable checkpoint whenever the process dies; temporary files that killed saves left are
   * removed first.
   *
   * @throws UncheckedIOException if a file cannot be written
   */
  public void save(Path prefix) {
    try {
      Checkpoint.save(prefix, symbolJson(), checkpointArrays());
    } catch (IOException e) {
      throw new UncheckedIOException(modelName() + ": cannot write checkpoint " + prefix + ": "
          + describe(e), e);
    }
  }

  /**
   * Reads the parameters (and auxiliary states) of checkpoint {@code prefix} into this model.
   * The checkpoint's symbol must be this model's architecture (same operators, wiring and
   * attributes; see {@link Checkpoint#load}), the parameters must have the SHA-256 their
   * integrity file records when there is one, every parameter of the model must be in the file
   * with its exact shape, and the file may hold nothing else; nothing is changed unless all of
   * that holds. Stale temporary files of killed saves of this checkpoint are removed.
   *
   * @throws UncheckedIOException if the file is missing, unreadable or does not fit (its cause is
   *     then a {@link CheckpointException} naming the file and the problem)
   */
  public void loadParams(Path prefix) {
    loadParams(prefix, false);
  }

  /**
   * As {@link #loadParams(Path)}; when {@code lenient}, for loading into a different
   * architecture, the symbol is not compared (nor needed) and arrays in the file that the model
   * does not have are skipped instead of being an error.
   */
  public void loadParams(Path prefix, boolean lenient) {
    ParameterStore params = cache.store();
    try {
      Checkpoint.load(prefix, symbolJson(), checkpointArrays(), lenient);
    } catch (IOException e) {
      throw new UncheckedIOException(modelName() + ": cannot load checkpoint " + prefix + ": "
          + describe(e), e);
    } finally {
      params.weightsChanged();
    }
  }

  /** What a checkpoint of this model holds: {@code arg:<name>} for every parameter. */
  private Map<String, Tensor> checkpointArrays() {
    Map<String, Tensor> arrays = new LinkedHashMap<>();
    for (ParameterStore.Slot s : slots()) {
      arrays.put(Checkpoint.argKey(s.name()), s.weight());
    }
    for (ParameterStore.AuxSlot a : auxSlots()) {
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
    plainSgd.close();
    cache.close();
  }

  /** Whether {@link #close()} has run. */
  public boolean isClosed() {
    return closed;
  }
}
