package dev.kiln.runtime;

import ai.djl.ndarray.NDArray;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.LossOp;
import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.CallGuard;
import dev.kiln.runtime.exec.ExecArray;
import dev.kiln.runtime.exec.ExecutorCache;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.RecurrentParameter;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.graph.StateSpec;
import dev.kiln.runtime.graph.precision.Precision;
import dev.kiln.runtime.infer.ChannelPadding;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.io.CheckpointException;
import dev.kiln.runtime.io.ImportedParams;
import dev.kiln.runtime.io.NamedArray;
import dev.kiln.runtime.io.OnnxFiles;
import dev.kiln.runtime.io.OnnxParams;
import dev.kiln.runtime.optim.CheckedStep;
import dev.kiln.runtime.optim.Optimizer;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.Trainer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The runtime half of a generated {@code XModel}: the facade over Kiln's layers that generated
 * models delegate to. It holds the model's {@link ExecutorCache} (graph, parameters, executors per
 * input shape), initialises the weights, applies updates with an {@link Optimizer}, makes the
 * {@link Classifier} view on demand, and reads and writes checkpoints.
 *
 * <p>It owns everything it holds and frees it all in {@link #close()}. Not thread-safe.
 */
public final class ModelRuntime implements AutoCloseable {
  private final ExecutorCache cache;

  /**
   * The graph whose checkpoint symbol {@link #save} wrote last, and that symbol: a model saved
   * every epoch writes the same symbol without making an MXNet handle each time.
   */
  private Graph savedGraph;

  private String savedSymbol;
  private final Sgd plainSgd = new Sgd(1f);
  private Classifier classifier;
  private Trainer trainer;
  private Precision trainingPrecision = Precision.FP32;

  /**
   * Takes ownership of {@code graph}, allocates its parameters and initialises the weights with
   * {@code init} from {@code seed} (biases start at zero, normalisation scales at one, PReLU slopes
   * at 0.25: {@link ParamRole#start()}).
   */
  public ModelRuntime(String modelName, Graph graph, Init init, long seed) {
    this(modelName, graph, init, seed, 0);
  }

  /**
   * As {@link #ModelRuntime(String, Graph, Init, long)}, with every array and executor on CPU
   * context {@code cpu(device)}: a replica for data-parallel training on several contexts.
   */
  public ModelRuntime(String modelName, Graph graph, Init init, long seed, int device) {
    this.cache = new ExecutorCache(modelName, graph, device);
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
    params.checkGradients(true);
    for (ParameterStore.Slot slot : params.slots()) {
      float[] values = new float[(int) slot.weight().size()];
      if (slot.spec().kind() == ParamSpec.Kind.WEIGHT) {
        init.fill(slot.spec(), values, rng);
      } else if (slot.spec().kind() == ParamSpec.Kind.GAMMA) {
        Arrays.fill(values, (float) ParamRole.GAMMA.start());
      } else if (slot.spec().kind() == ParamSpec.Kind.SLOPE) {
        Arrays.fill(values, (float) ParamRole.ALPHA.start());
      } else if (slot.spec().kind() == ParamSpec.Kind.CONSTANT) {
        Arrays.fill(values, slot.spec().constant());
      } else if (slot.spec().kind() == ParamSpec.Kind.RECURRENT) {
        initializeRecurrent(slot.spec(), cache.graph().rnnLayout(slot.name()), init, rng, values);
      }
      slot.weight().copyFrom(values);
    }
    params.weightsChanged();
  }

  /**
   * Fills a fused recurrent vector gate by gate: each gate's matrix ({@code [units, in]} or {@code
   * [units, units]}) from {@code init} with its own fans, as if it were a layer of its own; biases
   * at zero, except an LSTM's forget-gate input-to-hidden bias at 1, so that the cell starts out
   * remembering (Gers, Schmidhuber and Cummins 2000; Jozefowicz, Zaremba and Sutskever, "An
   * Empirical Exploration of Recurrent Network Architectures", ICML 2015), as MXNet's legacy {@code
   * FusedRNNCell}, Keras and Flux do.
   */
  private static void initializeRecurrent(
      ParamSpec spec, RnnLayout layout, Init init, SplittableRandom rng, float[] values) {
    for (RnnLayout.Block b : layout.blocks()) {
      if (b.bias()) {
        if (b.gate() == RnnLayout.Gate.FORGET && b.part() == RnnLayout.Part.INPUT_TO_HIDDEN) {
          Arrays.fill(values, (int) b.offset(), (int) (b.offset() + b.size()), 1f);
        }
        continue;
      }
      float[] block = new float[(int) b.size()];
      init.fill(
          new ParamSpec(
              spec.name()
                  + "[l"
                  + b.layer()
                  + " d"
                  + b.direction()
                  + " "
                  + b.part()
                  + " "
                  + b.gate()
                  + "]",
              Shape.of(b.shape()),
              spec.node(),
              ParamSpec.Kind.WEIGHT),
          block,
          rng);
      System.arraycopy(block, 0, values, (int) b.offset(), block.length);
    }
  }

  /**
   * Starts new sequences: every stateful recurrent layer's carried state goes back to zeros, and
   * the next call may have any batch size.
   */
  public void resetState() {
    try (CallGuard.Scope call = guard().enter("resetState")) {
      cache.store().states().reset();
    }
  }

  /**
   * The state every stateful recurrent layer carries into the next call, by state name ({@code
   * <node>_state}, an LSTM's {@code <node>_state_cell}), each {@code [layers·dirs, batch, units]}
   * row-major; empty when no call ran since the last reset (the state is then zeros).
   */
  public Map<String, float[]> readState() {
    try (CallGuard.Scope call = guard().enter("state")) {
      return cache.store().states().read();
    }
  }

  /** The batch size of the carried state, or -1 when none is carried (after a reset). */
  public int stateBatch() {
    try (CallGuard.Scope call = guard().enter("stateBatch")) {
      return cache.store().states().batch();
    }
  }

  /**
   * Replaces the carried state of every stateful layer (the map {@link #readState()} returns) for a
   * batch of {@code batch}; the next call must have that batch size.
   */
  public void writeState(int batch, Map<String, float[]> state) {
    try (CallGuard.Scope call = guard().enter("setState")) {
      cache.store().states().write(batch, state);
    }
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
   * forward pass, which must have run in training mode. Parameter gradients add up until the next
   * {@link #update}; the returned input gradients are those of this call alone.
   */
  public NDArray[] backward(NDArray... headGrads) {
    return cache.backward(headGrads);
  }

  /** One plain SGD step with learning rate {@code lr}, then the gradients are zeroed. */
  public void update(float lr) {
    try (CallGuard.Scope call = guard().enter("update")) {
      plainSgd.learningRate(lr);
      update(plainSgd);
    }
  }

  /**
   * One step of {@code optimizer} on every trainable parameter (those of {@code @Frozen} nodes are
   * left alone) with the gradients accumulated by {@link #backward} since the last update, then the
   * gradients are zeroed: each gradient is applied once. Unless {@link #checkGradients(boolean)
   * turned off}, the gradients are checked to be finite while MXNet applies them, and a bad update
   * is taken back before this throws.
   *
   * @throws IllegalStateException if no {@code backward} ran since the last update (or the
   *     classifier's training step already applied the gradients): there is nothing to apply
   * @throws dev.kiln.runtime.exec.NonFiniteException if a gradient is NaN or infinite; the
   *     parameters and the optimizer's state are as before the update, and the gradients are kept
   *     for inspection
   */
  public void update(Optimizer optimizer) {
    try (CallGuard.Scope call = guard().enter("update")) {
      ParameterStore params = cache.store();
      if (params.gradients() != ParameterStore.Gradients.ACCUMULATED) {
        throw new IllegalStateException(
            modelName()
                + ".update: no gradient to apply: "
                + (params.gradients() == ParameterStore.Gradients.CONSUMED
                    ? "the classifier's training step already applied the latest gradients"
                    : "no backward pass since the last update")
                + "; each gradient is applied once (call backward after a training-mode forward)");
      }
      CheckedStep.apply(params, optimizer, modelName());
      params.zeroGrads();
    }
  }

  /**
   * Discards the gradients accumulated since the last update without applying them (e.g. after a
   * backward pass run only for its input gradients).
   */
  public void zeroGradients() {
    try (CallGuard.Scope call = guard().enter("zeroGradients")) {
      cache.store().zeroGrads();
    }
  }

  /**
   * Whether every update's gradients are checked to be finite (on by default), so that a NaN is
   * never left in the weights: a bad update is taken back ({@link
   * dev.kiln.runtime.optim.CheckedStep}). It costs a scan of the gradients beside MXNet's work and
   * a copy of the weights and optimizer state per update. Off, a NaN loss still stops {@code fit}
   * one batch late, with the weights already poisoned.
   */
  public void checkGradients(boolean on) {
    try (CallGuard.Scope call = guard().enter("checkGradients")) {
      cache.store().checkGradients(on);
    }
  }

  /**
   * Chooses what a call does while another thread is inside a call of this model: fail at once
   * ({@link CallGuard.Policy#EXCLUSIVE}, the default) or wait its turn ({@link
   * CallGuard.Policy#SERIALIZED}). See {@link CallGuard}.
   */
  public void threadPolicy(CallGuard.Policy policy) {
    guard().policy(policy);
  }

  /** The model's thread contract. */
  public CallGuard guard() {
    return cache.guard();
  }

  /**
   * The number format of the graphs {@link #classifier} and {@link #trainer} train: {@link
   * Precision#FP32} unless set. Set it before the first of them; the weights, the optimizer and
   * inference stay float32 either way.
   *
   * @throws UnsupportedOperationException where this machine cannot train in {@code precision}
   *     ({@link Precision#refusal()} says why)
   * @throws IllegalStateException once a classifier or trainer has been made in another precision
   */
  public void trainingPrecision(Precision precision) {
    try (CallGuard.Scope call = guard().enter("trainingPrecision")) {
      cache.checkOpen();
      String refusal = precision.refusal();
      if (refusal != null) {
        throw new UnsupportedOperationException(modelName() + ": " + refusal);
      }
      boolean made =
          classifier != null && !classifier.isClosed() || trainer != null && !trainer.isClosed();
      if (made && precision != trainingPrecision) {
        throw new IllegalStateException(
            modelName()
                + " already trains in "
                + trainingPrecision.label()
                + ": set the training precision before the first classifier() or trainer() call");
      }
      trainingPrecision = precision;
    }
  }

  /** The number format of the training graphs (see {@link #trainingPrecision(Precision)}). */
  public Precision trainingPrecision() {
    return trainingPrecision;
  }

  /**
   * {@code graph} (taken over) as the training precision computes it, and in float32 with the GEMM
   * convolutions' filters padded to whole blocks ({@link ChannelPadding#training}).
   */
  private Graph trainingGraph(Graph graph) {
    Graph g = trainingPrecision.apply(graph);
    return trainingPrecision == Precision.FP32 ? ChannelPadding.training(g) : g;
  }

  /**
   * The classifier view of this model (see {@link Classifier}), made on first use from the graph
   * {@code classifierGraph} builds; it trains this model's own parameters.
   */
  public Classifier classifier(Supplier<Graph> classifierGraph) {
    try (CallGuard.Scope call = guard().enter("classifier")) {
      cache.checkOpen();
      // A caller that closed the classifier (try-with-resources on model.classifier()) freed its
      // executors only: the next call makes a new one over the same parameters.
      if (classifier == null || classifier.isClosed()) {
        classifier =
            new Classifier(modelName(), cache.store(), trainingGraph(classifierGraph.get()));
      }
      return classifier;
    }
  }

  /**
   * The trainer of this model's loss head of {@code kind} (see {@link Trainer}), made on first use
   * from the graph {@code trainingGraph} builds; it trains this model's own parameters.
   */
  public Trainer trainer(LossOp.Kind kind, Supplier<Graph> trainingGraph) {
    try (CallGuard.Scope call = guard().enter("trainer")) {
      cache.checkOpen();
      if (trainer == null || trainer.isClosed()) {
        trainer = new Trainer(modelName(), kind, cache.store(), trainingGraph(trainingGraph.get()));
      }
      return trainer;
    }
  }

  /**
   * An inference-only copy of this model as it is now (see {@link Predictor}): its own weights,
   * executors bound without gradients, fused by MXNet's oneDNN pass unless {@code options} say
   * otherwise. Later training does not change it. Every input must have one {@code BATCH}
   * dimension; a loss head's labels are inputs too; recurrent states start at zeros. Free
   * dimensions ({@code @FreeDim}) stay free: the predictor takes each call's input shapes, checks
   * them against the model's {@link Graph#dimensions()} and binds per set of shapes.
   *
   * @throws UnsupportedOperationException for a model with cells over {@code Dim.STEPS} (a symbol
   *     per number of steps) or an input without exactly one {@code BATCH} dimension
   */
  public Predictor predictor(InferenceOptions options) {
    try (CallGuard.Scope call = guard().enter("predictor")) {
      Graph g = cache.graph();
      if (g.unrolledSteps() != 0) {
        throw new UnsupportedOperationException(
            modelName()
                + " has custom cells over Dim.STEPS (a symbol per number of steps): a predictor"
                + " needs one symbol");
      }
      List<Port> ports;
      try {
        ports = ports(g);
      } catch (IllegalArgumentException e) {
        throw new UnsupportedOperationException(
            modelName()
                + ": a predictor needs inputs with one BATCH dimension each: "
                + e.getMessage(),
            e);
      }
      Map<String, Tensor> arrays = new LinkedHashMap<>();
      for (ParameterStore.Slot s : slots()) {
        arrays.put(s.name(), s.weight());
      }
      for (ParameterStore.AuxSlot a : auxSlots()) {
        arrays.put(a.name(), a.value());
      }
      Map<String, Shape> zeros = new LinkedHashMap<>();
      for (StateSpec s : g.states()) {
        zeros.put(s.name(), s.batch() > 0 ? s.shape(s.batch()) : s.pattern());
      }
      return Predictor.create(
          modelName(), g.toJson(), ports, g.outputs(), arrays, zeros, g.dimensions(), options);
    }
  }

  /**
   * The executor bound for {@code inputShapes} (complete, declaration order), binding it on first
   * use. It stays owned by this runtime.
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
   * The fused recurrent vector {@code name} ({@code <node>_parameters}) seen gate by gate.
   *
   * @throws IllegalArgumentException if {@code name} is not a recurrent layer's vector
   */
  public RecurrentParameter recurrent(String name) {
    RnnLayout layout = cache.graph().rnnLayout(name);
    if (layout == null) {
      throw new IllegalArgumentException(
          modelName() + " has no recurrent parameter vector '" + name + "'");
    }
    return new RecurrentParameter(param(name), layout);
  }

  /**
   * Typed access to auxiliary state {@code name} (e.g. {@code bn_moving_mean}): read and write like
   * a parameter; it has no gradient.
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
   * What an optimizer step updates: one slot spanning every trainable parameter whose arrays are
   * views of it, then any trainable parameter with arrays of its own (see {@link
   * ParameterStore#fusedSlots()}). Every update path steps exactly these.
   */
  public List<ParameterStore.Slot> updateSlots() {
    return cache.store().fusedSlots();
  }

  /**
   * The parameters an optimizer changes, one by one: every parameter except those of
   * {@code @Frozen} nodes, in MXNet's argument order. Their arrays are views of {@link
   * #updateSlots()}, or among them.
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
      throw new IllegalArgumentException(modelName() + " has no auxiliary state '" + name + "'");
    }
    return s;
  }

  /** The auxiliary states, in MXNet's order. */
  public List<ParameterStore.AuxSlot> auxSlots() {
    return cache.store().auxSlots();
  }

  /**
   * The symbol as MXNet JSON. A model whose custom recurrent cells read {@code Dim.STEPS} steps has
   * one symbol per number of steps: this is the one its latest forward pass ran (before any, the
   * one it was built with, one step); {@link #symbolJson(int)} gives any other.
   */
  public String symbolJson() {
    return cache.latestGraph().toJson();
  }

  /**
   * {@link #symbolJson()} with its inputs' shapes recorded ({@link Predictor#withInputShapes}); as
   * it is for a model a predictor cannot take (custom cells over {@code Dim.STEPS}, an input
   * without one {@code BATCH} dimension), whose checkpoint is then loaded with the shapes given.
   */
  private String symbolWithInputShapes() {
    Graph g = cache.latestGraph();
    if (g == savedGraph) {
      return savedSymbol;
    }
    savedSymbol = recordInputShapes(g);
    savedGraph = g;
    return savedSymbol;
  }

  /** {@link #symbolWithInputShapes} for graph {@code g}: MXNet writes it, through a new handle. */
  private static String recordInputShapes(Graph g) {
    String json = g.toJson();
    if (g.unrolledSteps() != 0) {
      return json;
    }
    List<Port> ports;
    try {
      ports = ports(g);
    } catch (IllegalArgumentException e) {
      return json;
    }
    return Predictor.withInputShapes(json, ports, g.dimensions());
  }

  /**
   * The data inputs of {@code g} as a predictor takes them: its inputs, then its labels.
   *
   * @throws IllegalArgumentException when one has not exactly one {@code BATCH} dimension
   */
  private static List<Port> ports(Graph g) {
    List<Port> ports = new ArrayList<>();
    for (InputSpec in : g.inputs()) {
      ports.add(new Port(in.name(), in.shape()));
    }
    for (int i = 0; i < g.labels().size(); i++) {
      ports.add(new Port(g.labels().get(i), g.labelShape(i)));
    }
    return ports;
  }

  /**
   * The symbol as MXNet JSON for inputs of {@code steps} steps: the one symbol of a model without
   * cells over {@code Dim.STEPS}, otherwise the graph unrolled over {@code steps} (built on first
   * use and kept, as binding an executor of that length does).
   */
  public String symbolJson(int steps) {
    return cache.graph(steps).toJson();
  }

  /**
   * Writes an MXNet checkpoint: {@code prefix-symbol.json} ({@link #symbolJson()}: for a model with
   * cells over {@code Dim.STEPS}, unrolled over the steps of its latest forward pass) and {@code
   * prefix-0000.params} (an NDArray list keyed {@code arg:<name>} for parameters and {@code
   * aux:<name>} for auxiliary states, see {@link Checkpoint}) and {@code prefix-0000.params.sha256}
   * (its SHA-256). The symbol records each data input's shape (and the free dimensions with their
   * requirements) as {@link Predictor#save} does, so that {@code Predictor.load}, {@code kiln
   * serve} and {@code kiln export} read the checkpoint without being told its inputs; MXNet and DJL
   * ignore the attributes. Each file is written beside its target and renamed into place, in an
   * order that leaves a loadable checkpoint whenever the process dies; temporary files that killed
   * saves left are removed first.
   *
   * @throws UncheckedIOException if a file cannot be written
   */
  public void save(Path prefix) {
    try (CallGuard.Scope call = guard().enter("save")) {
      Checkpoint.save(prefix, symbolWithInputShapes(), checkpointArrays());
    } catch (IOException e) {
      throw new UncheckedIOException(
          modelName() + ": cannot write checkpoint " + prefix + ": " + describe(e), e);
    }
  }

  /**
   * Writes the model as ONNX to {@code file} in {@code opset} (see {@link OnnxFiles}): the
   * inference graph of {@link #symbolJson()}, the inputs with {@code BATCH} as the symbolic {@code
   * batch}, the outputs by name and every parameter and auxiliary state as an initializer. The file
   * is written atomically.
   *
   * @throws dev.kiln.onnx.OnnxExportException naming the node and why, when the model cannot be
   *     expressed in ONNX; nothing is written then
   * @throws UncheckedIOException if the file cannot be written
   */
  public void exportOnnx(Path file, int opset) {
    exportOnnx(file, opset, graph().outputs());
  }

  /**
   * As {@link #exportOnnx(Path, int)}, the outputs named {@code outputNames} (one per output, e.g.
   * the model's declared names, {@code KilnModel.outputs()}).
   */
  public void exportOnnx(Path file, int opset, List<String> outputNames) {
    try (CallGuard.Scope call = guard().enter("exportOnnx")) {
      Map<String, NamedArray> arrays = new LinkedHashMap<>();
      for (ParameterStore.Slot s : slots()) {
        arrays.put(
            s.name(),
            new NamedArray(Checkpoint.argKey(s.name()), s.weight().shape(), param(s.name()).get()));
      }
      for (ParameterStore.AuxSlot a : auxSlots()) {
        arrays.put(
            a.name(),
            new NamedArray(
                Checkpoint.auxKey(a.name()), a.value().shape(), auxState(a.name()).get()));
      }
      Graph g = graph();
      OnnxFiles.write(
          file, modelName(), symbolJson(), g.inputs(), g.dimensions(), outputNames, arrays, opset);
    } catch (IOException e) {
      throw new UncheckedIOException(
          modelName() + ": cannot write ONNX file " + file + ": " + describe(e), e);
    }
  }

  /**
   * Reads the parameters (and auxiliary states) of checkpoint {@code prefix} into this model. The
   * checkpoint's symbol must be this model's architecture (same operators, wiring and attributes;
   * see {@link Checkpoint#load}; for a model with cells over {@code Dim.STEPS}, unrolled over any
   * number of steps: it is compared with this model's graph unrolled over as many), the parameters
   * must have the SHA-256 their integrity file records when there is one, every parameter of the
   * model must be in the file with its exact shape, and the file may hold nothing else; nothing is
   * changed unless all of that holds. Stale temporary files of killed saves of this checkpoint are
   * removed.
   *
   * @throws UncheckedIOException if the file is missing, unreadable or does not fit (its cause is
   *     then a {@link CheckpointException} naming the file and the problem)
   */
  public void loadParams(Path prefix) {
    loadParams(prefix, false);
  }

  /**
   * As {@link #loadParams(Path)}; when {@code lenient}, for loading into a different architecture,
   * the symbol is not compared (nor needed) and arrays in the file that the model does not have are
   * skipped instead of being an error.
   */
  public void loadParams(Path prefix, boolean lenient) {
    try (CallGuard.Scope call = guard().enter("loadParams")) {
      ParameterStore params = cache.store();
      try {
        Checkpoint.load(prefix, this::symbolJsonLike, checkpointArrays(), lenient);
      } catch (IOException e) {
        throw new UncheckedIOException(
            modelName() + ": cannot load checkpoint " + prefix + ": " + describe(e), e);
      } finally {
        params.weightsChanged();
      }
    }
  }

  /**
   * Reads the parameters and auxiliary states of the model's imported nodes ({@code @Imported})
   * from {@code file}, the {@code .params} published with their symbol file (see {@link
   * ImportedParams}): every one of {@code wanted} must be there with its shape, the arrays of
   * {@code skipped} (of nodes the imports cut away) are passed over, and anything else is refused;
   * the model's other parameters keep their values.
   *
   * @return the names of the arrays skipped
   * @throws UncheckedIOException if the file is missing, unreadable or does not fit (its cause is
   *     then a {@link CheckpointException} naming the file and the array)
   */
  public List<String> loadImported(
      Path file, Collection<String> wanted, Collection<String> skipped) {
    try (CallGuard.Scope call = guard().enter("loadImported")) {
      ParameterStore params = cache.store();
      Map<String, Tensor> weights = new LinkedHashMap<>();
      for (ParameterStore.Slot s : slots()) {
        weights.put(s.name(), s.weight());
      }
      Map<String, Tensor> aux = new LinkedHashMap<>();
      for (ParameterStore.AuxSlot a : auxSlots()) {
        aux.put(a.name(), a.value());
      }
      try {
        return ImportedParams.read(file, weights, aux, wanted, skipped);
      } catch (IOException e) {
        throw new UncheckedIOException(
            modelName() + ": cannot load imported parameters: " + describe(e), e);
      } finally {
        params.weightsChanged();
      }
    }
  }

  /**
   * Loads the parameters and auxiliary states of the nodes imported from an ONNX file from that
   * file ({@link OnnxParams}): what a generated model's {@code loadImported} calls for an {@code
   * onnx} import.
   *
   * @param file the {@code .onnx} file the model imports
   * @param wanted the names of the imported nodes' parameters and auxiliary states
   * @param inputs the shapes of the file's inputs as the model compiled them, by ONNX name
   * @return the names of the file's initializers no imported node reads
   * @throws java.io.UncheckedIOException naming the file and the array at fault
   */
  public List<String> loadOnnx(Path file, Collection<String> wanted, Map<String, Shape> inputs) {
    try (CallGuard.Scope call = guard().enter("loadImported")) {
      ParameterStore params = cache.store();
      Map<String, Tensor> weights = new LinkedHashMap<>();
      for (ParameterStore.Slot s : slots()) {
        weights.put(s.name(), s.weight());
      }
      Map<String, Tensor> aux = new LinkedHashMap<>();
      for (ParameterStore.AuxSlot a : auxSlots()) {
        aux.put(a.name(), a.value());
      }
      Map<String, TShape> shapes = new LinkedHashMap<>();
      inputs.forEach((name, shape) -> shapes.put(name, unitShape(shape)));
      try {
        return OnnxParams.read(file, weights, aux, wanted, shapes);
      } catch (IOException e) {
        throw new UncheckedIOException(
            modelName() + ": cannot load imported parameters: " + describe(e), e);
      } finally {
        params.weightsChanged();
      }
    }
  }

  /**
   * This model's symbol to compare a stored one with: unrolled over the steps {@code stored}
   * unrolls the model's cells over Dim.STEPS, when it does, otherwise {@link #symbolJson()}.
   */
  private String symbolJsonLike(String stored) {
    int steps = graph().stepsIn(stored);
    return steps > 0 ? symbolJson(steps) : symbolJson();
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
  /**
   * {@code shape} as the processor gave it to the ONNX translation: each free entry the free size
   * its label writes ({@code H}, {@code W - 4}), so that the file is read with the same dimensions.
   */
  private static TShape unitShape(Shape shape) {
    List<Integer> dims = new ArrayList<>();
    for (int i = 0; i < shape.rank(); i++) {
      int d = shape.dim(i);
      String label = shape.label(i);
      dims.add(
          Shape.isFree(d) && label != null
              ? TShape.size(dev.kiln.ops.rule.SizeExpr.parse(label))
              : d);
    }
    return new TShape(dims);
  }

  private static String describe(IOException e) {
    if (e instanceof CheckpointException) {
      return e.getMessage();
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
  }

  /**
   * Frees every executor, the parameters and the graph. Safe from any thread at any time: it waits
   * for a call in progress on another thread (asking a {@code fit} to stop after its current
   * batch). Idempotent.
   */
  @Override
  public void close() {
    cache.close(
        () -> {
          if (classifier != null) {
            classifier.close();
          }
          if (trainer != null) {
            trainer.close();
          }
          plainSgd.close();
        });
  }

  /** Whether {@link #close()} has run. */
  public boolean isClosed() {
    return cache.isClosed();
  }
}
