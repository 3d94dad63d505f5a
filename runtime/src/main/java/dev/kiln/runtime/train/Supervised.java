package dev.kiln.runtime.train;

import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.BoundExecutor.GradReq;
import dev.kiln.runtime.exec.CallGuard;
import dev.kiln.runtime.exec.FiniteCheck;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.CheckedStep;
import dev.kiln.runtime.optim.Optimizer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Supervised training of a model through a graph whose head computes the loss against a label
 * variable (a classifier's {@code SoftmaxOutput}, a loss head's {@code MakeLoss}), whatever the
 * head: the executors, the training step, the fit loop and evaluation that {@link Classifier} and
 * {@link Trainer} share. What differs per head (the label's shape and checks, the loss and the
 * metric of a batch's output) is its {@link Head}.
 *
 * <p>It binds the model's own parameter arrays, so training here trains the model itself: there is
 * nothing to copy in before or out after. Executors are cached per batch size. Each training step
 * overwrites the shared gradient arrays and consumes them at once; the model's own {@code backward}
 * starts from zero gradients afterwards.
 */
public final class Supervised implements AutoCloseable {
  /** What a training graph's head makes of a batch. */
  public interface Head {
    /** The metric's name ({@link FitContext#metric()}). */
    String metric();

    /** The label variable's shape for a batch of {@code batch} examples. */
    Shape labelShape(int batch);

    /** The label floats of one example. */
    int labelSize();

    /**
     * Throws {@link IllegalArgumentException}, naming the example, unless {@code labels} ({@code
     * labelSize()} floats an example) are labels this head can train on.
     */
    void checkLabels(float[] labels);

    /** The loss and metric sums of a batch, from the head's output and the labels. */
    Score score(float[] output, float[] labels, int examples);

    /** Throws {@link IllegalArgumentException} unless {@code data}'s labels or targets fit. */
    void checkDataset(Dataset data);

    /** What the label variable holds for {@code batch}. */
    float[] labels(Batch batch);
  }

  private static final int EVAL_BATCH = 500;

  private final String modelName;
  private final String role;
  private final ParameterStore store;
  private final Graph graph;
  private final Head head;
  private final Map<Integer, BoundExecutor> executors = new HashMap<>();
  private final Map<Integer, BoundExecutor[]> trainingExecutors = new HashMap<>();
  private boolean closed;

  /**
   * The sizes of the model's free dimensions in the examples it trains on ({@link #fixSizes}), or
   * null while none are fixed.
   */
  private Map<String, Long> sizes;

  /**
   * Training of the model called {@code modelName} whose parameters are in {@code store}, through
   * {@code graph}, which it owns from now on; {@code role} ({@code classifier}, {@code trainer})
   * names it in messages.
   */
  Supervised(String modelName, String role, ParameterStore store, Graph graph, Head head) {
    this.modelName = modelName;
    this.role = role;
    this.store = store;
    this.graph = graph;
    this.head = head;
  }

  /** The model's parameters. */
  ParameterStore store() {
    return store;
  }

  /** The head. */
  public Head head() {
    return head;
  }

  /**
   * One training step on a batch: forward in training mode, backward of the loss, then {@code
   * optimizer} on every parameter. Returns the executor, whose output is the head's.
   */
  BoundExecutor trainBatch(float[] features, float[] labels, int examples, Optimizer optimizer) {
    return step(features, labels, examples, optimizer, false);
  }

  /**
   * Queues forward, backward and the update for one batch; returns the executor used. With {@code
   * checkAtNextCall} the update's gradient check is left to the model's next call ({@link
   * CheckedStep#applyCheckingAtNextCall}). The caller entered the model's guard; a check the
   * previous call left pending runs here, once the forward pass is queued if the forward pass
   * writes nothing but its outputs, so that Java scans the previous gradients while MXNet runs it.
   */
  BoundExecutor step(
      float[] features,
      float[] labels,
      int examples,
      Optimizer optimizer,
      boolean checkAtNextCall) {
    // The calls this step makes into the executor must not run the pending check: it runs below.
    try (CallGuard.Scope step = store.guard().enterLeavingDeferred(role + ".step")) {
      if (store.gradients() == ParameterStore.Gradients.ACCUMULATED) {
        throw new IllegalStateException(
            modelName
                + ": the model holds gradients from backward "
                + "that no update applied, and a "
                + role
                + " training step would overwrite them; "
                + "call update(...) to apply them or zeroGradients() to discard them first");
      }
      BoundExecutor exec = load(trainingExecutor(examples), features, labels, examples);
      // A training-mode forward pass also writes batch norm's moving statistics and a stateful
      // model's carried state: those must not see weights a pending check would take back.
      boolean forwardWritesState = !store.auxSlots().isEmpty() || store.states().isStateful();
      if (forwardWritesState) {
        store.guard().runDeferred();
      }
      exec.forward(true);
      // The backward pass overwrites the gradients the pending check reads.
      store.guard().runDeferred();
      exec.backwardLoss();
      // Training alternates two executors: this one's next batch is copied in after the next
      // step is queued, by which time the fence has found this step's readers of it done.
      exec.fenceInputs();
      store.gradientsConsumed();
      if (checkAtNextCall) {
        CheckedStep.applyCheckingAtNextCall(store, optimizer, modelName);
      } else {
        CheckedStep.apply(store, optimizer, modelName);
      }
      return exec;
    }
  }

  /** See {@link Classifier#fit(DataLoader, Dataset, int, Optimizer, TrainingListener...)}. */
  FitResult fit(
      DataLoader train,
      Dataset validation,
      int epochs,
      Optimizer optimizer,
      List<TrainingListener> listeners) {
    try (CallGuard.Scope call = store.guard().enter(role + ".fit")) {
      checkDataset(train.dataset());
      if (validation != null) {
        checkDataset(validation);
      }
      // Each batch is scored one step late, once the next step is queued: MXNet never waits
      // for Java, and the previous step's output is in an executor this step does not use
      // (training alternates between two per batch size).
      return FitLoop.run(
          modelName,
          head.metric(),
          train,
          validation,
          epochs,
          new FitLoop.Stepper() {
            @Override
            public FitLoop.Step step(Batch b) {
              float[] labels = head.labels(b);
              BoundExecutor exec =
                  Supervised.this.step(b.features(), labels, b.size(), optimizer, true);
              int n = b.size();
              return () -> head.score(exec.output(0).toFloatArray(), labels, n);
            }

            @Override
            public void finish() {
              store.guard().runDeferred();
            }
          },
          this::evaluate,
          store.guard()::closing,
          listeners);
    }
  }

  /**
   * A batch copied into the training executor, waiting for {@link #computeGradients(Staged)}. Only
   * the trainer that staged it may run it.
   */
  public static final class Staged {
    private final Supervised owner;
    private final BoundExecutor exec;
    private final float[] labels;
    private final int examples;

    private Staged(Supervised owner, BoundExecutor exec, float[] labels, int examples) {
      this.owner = owner;
      this.exec = exec;
      this.labels = labels;
      this.examples = examples;
    }
  }

  /**
   * Checks a batch and copies it into the training executor, queueing no computation, for a trainer
   * that combines the gradients of several replicas ({@link #computeGradients(Staged)}). A trainer
   * of several replicas stages every replica's batch before it starts any replica's passes, because
   * a copy into an MXNet array waits behind the work queued on context {@code cpu(0)} (MXNet pushes
   * the copy's wait there): staging replica 1 after starting replica 0 would make the two contexts
   * take turns.
   */
  public Staged stage(float[] features, float[] labels, int examples) {
    try (CallGuard.Scope call = store.guard().enter(role + ".stage")) {
      if (store.gradients() == ParameterStore.Gradients.ACCUMULATED) {
        throw new IllegalStateException(
            modelName
                + ": the model holds gradients from backward "
                + "that no update applied; call update(...) or zeroGradients() first");
      }
      BoundExecutor exec = load(trainingExecutor(examples), features, labels, examples);
      return new Staged(this, exec, labels.clone(), examples);
    }
  }

  /**
   * Queues the training-mode forward and backward passes of a batch {@link #stage}d here, without
   * an update: the gradient arrays hold the batch's gradient afterwards (the loss summed or
   * averaged over the batch, as the graph's head normalises). Returns how to score the batch.
   *
   * @throws IllegalArgumentException if another trainer staged it
   */
  public FitLoop.Step computeGradients(Staged staged) {
    try (CallGuard.Scope call = store.guard().enter(role + ".computeGradients")) {
      if (staged.owner != this) {
        throw new IllegalArgumentException(
            modelName + ": the batch was staged by another " + role + "'s executor");
      }
      BoundExecutor exec = staged.exec;
      exec.forward(true);
      exec.backwardLoss();
      exec.fenceInputs();
      store.gradientsConsumed();
      return () -> head.score(exec.output(0).toFloatArray(), staged.labels, staged.examples);
    }
  }

  /** The training graph (owned here), e.g. to copy for a replica. */
  public Graph graph() {
    return graph;
  }

  /** Mean loss and metric over {@code data}, in inference mode, in batches of 500. */
  public Evaluation evaluate(Dataset data) {
    try (CallGuard.Scope call = store.guard().enter(role + ".evaluate")) {
      checkDataset(data);
      double loss = 0;
      double metric = 0;
      for (Batch b : data.batches(EVAL_BATCH, false, 0)) {
        Score r = evaluateBatch(b.features(), head.labels(b), b.size());
        loss += r.lossSum();
        metric += r.metricSum();
      }
      return new Evaluation(loss / data.size(), metric / data.size(), data.size(), head.metric());
    }
  }

  /** Loss and metric sums of one batch, in inference mode; nothing is trained. */
  Score evaluateBatch(float[] features, float[] labels, int examples) {
    BoundExecutor exec = load(executor(examples), features, labels, examples);
    exec.forward(false);
    return head.score(exec.output(0).toFloatArray(), labels, examples);
  }

  /** The head's inference-mode output for {@code batch} examples, row-major. */
  float[] output(float[] features, int batch) {
    BoundExecutor exec = executor(batch);
    int size = featureSize();
    if (features == null || features.length != (long) batch * size) {
      throw new IllegalArgumentException(
          modelName
              + ": "
              + batch
              + " examples need "
              + batch
              + " × "
              + size
              + " feature values, got "
              + (features == null ? "null" : features.length));
    }
    requireFinite(features, size, "inputs must be finite");
    exec.input(0).copyFrom(features);
    exec.forward(false);
    return exec.output(0).toFloatArray();
  }

  /**
   * Copies a batch in: the features into the first input, the labels into the label variable, or,
   * for a loss head without one ({@code @Loss}), into the second input when there is one.
   */
  private BoundExecutor load(BoundExecutor exec, float[] features, float[] labels, int examples) {
    checkBatch(features, labels, examples);
    exec.loadInput(0, features);
    if (!graph.labels().isEmpty()) {
      exec.loadLabel(0, labels);
    } else if (graph.inputs().size() > 1) {
      exec.loadInput(1, labels);
    }
    return exec;
  }

  /**
   * Checks one batch before it reaches MXNet: as many examples of features as of labels, every
   * feature finite, the labels as the head wants them. MXNet would train on NaN silently (and
   * poison the weights) and clip an out-of-range label to a class.
   */
  private void checkBatch(float[] features, float[] labels, int examples) {
    if (features == null || labels == null) {
      throw new IllegalArgumentException(
          modelName
              + ": the batch's "
              + (features == null ? "features are" : "labels are")
              + " null");
    }
    int size = featureSize();
    if (features.length != (long) examples * size) {
      throw new IllegalArgumentException(
          modelName
              + ": "
              + examples
              + " examples need "
              + examples
              + " × "
              + size
              + " = "
              + ((long) examples * size)
              + " feature values (input shape "
              + graph.inputs().get(0).shape()
              + "), got "
              + features.length
              + (features.length % size == 0 ? " (" + features.length / size + " examples)" : ""));
    }
    if (labels.length != (long) examples * head.labelSize()) {
      throw new IllegalArgumentException(
          modelName
              + ": "
              + examples
              + " examples need "
              + examples
              + " × "
              + head.labelSize()
              + " target values (the shape of "
              + graph.outputs().get(0)
              + "), got "
              + labels.length);
    }
    requireFinite(
        features,
        size,
        "training and evaluation data must be finite (a NaN would silently poison the weights)");
    head.checkLabels(labels);
  }

  void checkDataset(Dataset data) {
    int expected = featureSize();
    if (data.featureSize() != expected) {
      throw new IllegalArgumentException(
          modelName
              + " takes "
              + expected
              + " features per example (input shape "
              + graph.inputs().get(0).shape()
              + "), the "
              + "dataset has "
              + data.featureSize());
    }
    head.checkDataset(data);
  }

  /**
   * Fixes the sizes of the model's free dimensions ({@code @FreeDim}) in the examples this trains
   * on, e.g. {@code Map.of("H", 28, "W", 28)}: examples are flat floats of the input's shape at
   * those sizes. Executors bound at other sizes are freed.
   *
   * @throws IllegalArgumentException unless {@code given} names every free dimension and nothing
   *     else, at sizes the model's requirements allow (naming the rule and the node)
   */
  public void fixSizes(Map<String, Integer> given) {
    Dimensions dims = graph.dimensions();
    Map<String, Long> s = new java.util.LinkedHashMap<>();
    for (Dimensions.Dim d : dims.dims()) {
      Integer v = given.get(d.name());
      if (v == null) {
        throw new IllegalArgumentException(
            modelName + ": no size for free dimension " + d.name() + " in " + given);
      }
      s.put(d.name(), (long) v);
    }
    if (given.size() != s.size()) {
      throw new IllegalArgumentException(
          modelName
              + " has free dimensions "
              + dims.dims().stream().map(Dimensions.Dim::name).toList()
              + ", got sizes for "
              + given.keySet());
    }
    List<Shape> shapes = graph.inputs().stream().map(in -> dims.fix(in.shape(), s, 1)).toList();
    dims.sizes(modelName, graph.inputs(), shapes);
    freeExecutors();
    sizes = s;
  }

  /** The floats of one example's input. */
  int featureSize() {
    int n = 1;
    Shape input = graph.inputs().get(0).shape();
    if (!graph.dimensions().isEmpty()) {
      input = graph.dimensions().fix(input, fixedSizes(), 1);
    }
    for (int d : input.dims()) {
      if (d == Shape.STEPS) {
        throw new IllegalStateException(
            modelName
                + ": the "
                + role
                + " reads examples of a fixed "
                + "size, but input '"
                + graph.inputs().get(0).name()
                + "' has shape "
                + input
                + "; declare a constant number of steps, or train with forward and backward");
      }
      n *= d < 0 ? 1 : d;
    }
    return n;
  }

  /** The executor for {@code batch} examples, bound on first use. */
  BoundExecutor executor(int batch) {
    checkBatch(batch);
    return executors.computeIfAbsent(batch, this::bind);
  }

  /**
   * The training executor for the next step of {@code batch} examples. Training alternates between
   * two executors per batch size, both over the model's one set of parameters: while MXNet's engine
   * still runs one step's backward pass and updates, the next batch is copied into the other
   * executor's input without waiting, so the Java side overlaps MXNet's kernels instead of queueing
   * behind them. MXNet orders the next forward pass after the updates it reads.
   */
  private BoundExecutor trainingExecutor(int batch) {
    checkBatch(batch);
    BoundExecutor[] pair =
        trainingExecutors.computeIfAbsent(batch, b -> new BoundExecutor[] {executor(b), bind(b)});
    BoundExecutor next = pair[0];
    pair[0] = pair[1];
    pair[1] = next;
    return next;
  }

  private void checkBatch(int batch) {
    if (closed) {
      throw new IllegalStateException(
          modelName
              + " "
              + role
              + " is closed; call the model's "
              + role
              + "() again for a new one over "
              + "the same parameters");
    }
    if (batch < 1) {
      throw new IllegalArgumentException(modelName + ": a batch needs at least one " + "example");
    }
    if (graph.unrolledSteps() > 0) {
      featureSize(); // a cell unrolled over STEPS: refused here, before binding a wrong length
    }
  }

  /**
   * The sizes fixed for the free dimensions.
   *
   * @throws IllegalStateException when the model has free dimensions and none are fixed
   */
  private Map<String, Long> fixedSizes() {
    if (sizes == null) {
      List<String> names = graph.dimensions().dims().stream().map(Dimensions.Dim::name).toList();
      throw new IllegalStateException(
          modelName
              + ": the "
              + role
              + " reads flat examples of one shape (to train, evaluate and predict), but input '"
              + graph.inputs().get(0).name()
              + "' "
              + graph.inputs().get(0).shape()
              + " has free dimensions "
              + String.join(", ", names)
              + "; fix their sizes first, e.g. "
              + role
              + "().fixSizes(Map.of("
              + String.join(", ", names.stream().map(n -> "\"" + n + "\", 28").toList())
              + "))");
    }
    return sizes;
  }

  /**
   * A new executor for {@code batch} examples at the least sizes the model's free dimensions allow,
   * to learn the output's shape before any size is fixed (the caller owns it).
   */
  BoundExecutor bindProbe(int batch) {
    Map<String, Long> fixed = sizes;
    sizes = graph.dimensions().probe();
    try {
      return bind(batch);
    } finally {
      sizes = fixed;
    }
  }

  /** A new executor for {@code batch} examples (the caller owns it). */
  BoundExecutor bind(int batch) {
    List<Shape> shapes = graph.inputs().stream().map(in -> withBatch(in, batch)).toList();
    return new BoundExecutor(
        graph,
        shapes,
        graph.labels().isEmpty() ? List.of() : List.of(head.labelShape(batch)),
        store,
        GradReq.WRITE,
        GradReq.NULL,
        false);
  }

  /** The input array of the executor for {@code batch}, for loops that fill it directly. */
  public Tensor inputArray(int batch) {
    try (CallGuard.Scope call = store.guard().enter(role + ".inputArray")) {
      return executor(batch).input(0);
    }
  }

  private Shape withBatch(InputSpec in, int batch) {
    if (!graph.dimensions().isEmpty()) {
      return graph.dimensions().fix(in.shape(), fixedSizes(), batch);
    }
    int[] dims = in.shape().dims();
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] < 0) {
        dims[i] = batch;
      }
    }
    return Shape.of(dims);
  }

  /**
   * Throws, naming the example and the feature, if a value of {@code features} ({@code size} values
   * an example) is NaN or infinite; {@code rule} ends the message.
   */
  private void requireFinite(float[] features, int size, String rule) {
    int bad = FiniteCheck.firstNonFinite(features);
    if (bad >= 0) {
      throw new IllegalArgumentException(
          modelName
              + ": feature "
              + (bad % size)
              + " of example "
              + (bad / size)
              + " is "
              + features[bad]
              + "; "
              + rule);
    }
  }

  /** Whether {@link #close()} ran. */
  public boolean isClosed() {
    return closed;
  }

  private void freeExecutors() {
    java.util.Set<BoundExecutor> all = new java.util.HashSet<>(executors.values());
    trainingExecutors.values().forEach(pair -> all.addAll(List.of(pair)));
    all.forEach(BoundExecutor::close);
    executors.clear();
    trainingExecutors.clear();
  }

  /** Frees the executors and the graph (not the model's parameters). Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      freeExecutors();
      graph.close();
    }
  }
}
