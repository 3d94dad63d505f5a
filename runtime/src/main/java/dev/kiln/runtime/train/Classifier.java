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
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.CheckedStep;
import dev.kiln.runtime.optim.Optimizer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A classifier view of a model whose last node is a softmax over {@code [BATCH, classes]}: the same
 * graph with that softmax replaced by MXNet's {@code SoftmaxOutput}, which adds a label input and
 * back-propagates the mean cross-entropy without a head gradient.
 *
 * <p>It binds the model's own parameter arrays, so training here trains the model itself: there is
 * nothing to copy in before or out after. Executors are cached per batch size. Each training step
 * overwrites the shared gradient arrays and consumes them at once; the model's own {@code backward}
 * starts from zero gradients afterwards.
 */
public final class Classifier implements AutoCloseable {
  private final String modelName;
  private final ParameterStore store;
  private final Graph graph;
  private final Map<Integer, BoundExecutor> executors = new HashMap<>();
  private final Map<Integer, BoundExecutor[]> trainingExecutors = new HashMap<>();
  private static final int EVAL_BATCH = 500;

  private final int classes;
  private boolean closed;

  /**
   * The classifier of the model called {@code modelName} whose parameters are in {@code store}: it
   * takes ownership of {@code graph}, the model's graph built with its softmax as MXNet's {@code
   * SoftmaxOutput} (and freed again if this fails).
   */
  public Classifier(String modelName, ParameterStore store, Graph graph) {
    this.modelName = modelName;
    this.store = store;
    this.graph = graph;
    if (graph.labels().size() != 1 || graph.outputs().size() != 1) {
      graph.close();
      throw new IllegalArgumentException(
          modelName + " is not a classifier: it needs " + "exactly one output, a softmax");
    }
    if (graph.inputs().size() != 1) {
      String why =
          modelName
              + " is not a classifier: classifier training feeds one input, but "
              + graph.model()
              + " has "
              + graph.inputs().size()
              + " ("
              + graph.inputs().stream()
                  .map(i -> i.name() + " " + i.shape())
                  .collect(Collectors.joining(", "))
              + ")";
      graph.close();
      throw new IllegalArgumentException(why);
    }
    Shape out;
    try (BoundExecutor probe = bind(1)) {
      out = probe.output(0).shape();
    }
    if (out.rank() != 2) {
      close();
      throw new IllegalArgumentException(
          modelName + ": a classifier's softmax must " + "have shape [BATCH, classes], got " + out);
    }
    this.classes = out.dim(1);
  }

  /** Number of classes (the softmax's width). */
  public int classes() {
    return classes;
  }

  /**
   * One training step on a batch: forward in training mode, backward of the mean cross-entropy,
   * then {@code optimizer} on every parameter.
   *
   * @param features the batch's inputs, row-major, {@code labels.length} examples
   * @param labels class indices in {@code [0, classes)}
   * @return the batch's mean cross-entropy loss and correct-prediction count
   */
  public Result trainBatch(float[] features, int[] labels, Optimizer optimizer) {
    try (CallGuard.Scope call = store.guard().enter("classifier.trainBatch")) {
      BoundExecutor exec = step(features, labels, optimizer, false);
      return score(exec.output(0).toFloatArray(), labels);
    }
  }

  /**
   * One training step like {@link #trainBatch}, but reading nothing back: the call returns as soon
   * as MXNet has the step queued, so the next batch is copied in while MXNet still computes this
   * one. The fastest way to train when the loss is not needed every step.
   *
   * <p>Because it does not wait, the step's gradient check (on unless {@code
   * checkGradients(false)}) is made by the model's next call, whatever it is, before that call does
   * anything else: a bad gradient throws {@link dev.kiln.runtime.exec.NonFiniteException} there,
   * naming this update, with the parameters and the optimizer's state as they were before it. A
   * step the next call cannot take back (an optimizer with {@code clipGlobalNorm}, or not a {@link
   * dev.kiln.runtime.optim.FusedOptimizer}) is checked before this call returns.
   *
   * @param features the batch's inputs, row-major, {@code labels.length} examples
   * @param labels class indices in {@code [0, classes)}
   */
  public void trainStep(float[] features, int[] labels, Optimizer optimizer) {
    try (CallGuard.Scope call = store.guard().enterLeavingDeferred("classifier.trainStep")) {
      step(features, labels, optimizer, true);
    }
  }

  /**
   * Queues forward, backward and the update for one batch; returns the executor used. With {@code
   * checkAtNextCall} the update's gradient check is left to the model's next call ({@link
   * CheckedStep#applyCheckingAtNextCall}). The caller entered the model's guard; a check the
   * previous call left pending runs here, once the forward pass is queued if the forward pass
   * writes nothing but its outputs, so that Java scans the previous gradients while MXNet runs it.
   */
  private BoundExecutor step(
      float[] features, int[] labels, Optimizer optimizer, boolean checkAtNextCall) {
    // The calls this step makes into the executor must not run the pending check: it runs below.
    try (CallGuard.Scope step = store.guard().enterLeavingDeferred("classifier.step")) {
      return stepHoldingCheck(features, labels, optimizer, checkAtNextCall);
    }
  }

  private BoundExecutor stepHoldingCheck(
      float[] features, int[] labels, Optimizer optimizer, boolean checkAtNextCall) {
    if (store.gradients() == ParameterStore.Gradients.ACCUMULATED) {
      throw new IllegalStateException(
          modelName
              + ": the model holds gradients from backward "
              + "that no update applied, and a classifier training step would overwrite them; "
              + "call update(...) to apply them or zeroGradients() to discard them first");
    }
    BoundExecutor exec = load(trainingExecutor(labels.length), features, labels);
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
    store.gradientsConsumed();
    if (checkAtNextCall) {
      CheckedStep.applyCheckingAtNextCall(store, optimizer, modelName);
    } else {
      CheckedStep.apply(store, optimizer, modelName);
    }
    return exec;
  }

  /**
   * Trains for {@code epochs} passes over {@code train}, starting from the model's current
   * parameters and leaving the trained ones in the model. Listeners see every batch and epoch and
   * may stop training early; a non-finite loss always stops it (MXNet would carry NaN on silently),
   * so does a gradient an update refused (see {@link FitLoop}).
   *
   * @param train the training batches (see {@link DataLoader#shuffled})
   * @param validation evaluated after every epoch, or null
   * @param epochs passes over the training data, at least 1
   * @param optimizer applied after every batch
   * @param listeners progress, metrics, early stopping, ...
   * @return every finished epoch and why training stopped early, if it did
   */
  public FitResult fit(
      DataLoader train,
      Dataset validation,
      int epochs,
      Optimizer optimizer,
      TrainingListener... listeners) {
    try (CallGuard.Scope call = store.guard().enter("classifier.fit")) {
      checkFeatures(train.dataset());
      if (validation != null) {
        checkFeatures(validation);
      }
      // Each batch is scored one step late, once the next step is queued: MXNet never waits
      // for Java, and the previous step's probabilities are in an executor this step does not
      // use (training alternates between two per batch size).
      return FitLoop.run(
          modelName,
          train,
          validation,
          epochs,
          new FitLoop.Stepper() {
            @Override
            public FitLoop.Step step(Batch b) {
              BoundExecutor exec = Classifier.this.step(b.features(), b.labels(), optimizer, true);
              int[] labels = b.labels();
              return () -> score(exec.output(0).toFloatArray(), labels);
            }

            @Override
            public void finish() {
              store.guard().runDeferred();
            }
          },
          this::evaluate,
          store.guard()::closing,
          List.of(listeners));
    }
  }

  /**
   * The training-mode forward and backward passes of one batch without an update, for a trainer
   * that combines the gradients of several replicas first (data parallelism): the gradient arrays
   * hold the batch's gradient afterwards (the loss summed or averaged over the batch, as the
   * graph's {@code SoftmaxOutput} normalises). Returns how to score the batch.
   */
  public FitLoop.Step computeGradients(float[] features, int[] labels) {
    return computeGradients(stage(features, labels));
  }

  /**
   * A batch copied into the training executor, waiting for {@link #computeGradients(Staged)}. Only
   * the classifier that staged it may run it.
   */
  public static final class Staged {
    private final Classifier owner;
    private final BoundExecutor exec;
    private final int[] labels;

    private Staged(Classifier owner, BoundExecutor exec, int[] labels) {
      this.owner = owner;
      this.exec = exec;
      this.labels = labels;
    }
  }

  /**
   * The first half of {@link #computeGradients(float[], int[])}: checks the batch and copies it
   * into the training executor, queueing no computation. A trainer of several replicas stages every
   * replica's batch before it starts any replica's passes, because a copy into an MXNet array waits
   * behind the work queued on context {@code cpu(0)} (MXNet pushes the copy's wait there): staging
   * replica 1 after starting replica 0 would make the two contexts take turns.
   */
  public Staged stage(float[] features, int[] labels) {
    try (CallGuard.Scope call = store.guard().enter("classifier.stage")) {
      if (store.gradients() == ParameterStore.Gradients.ACCUMULATED) {
        throw new IllegalStateException(
            modelName
                + ": the model holds gradients from backward "
                + "that no update applied; call update(...) or zeroGradients() first");
      }
      return new Staged(this, load(trainingExecutor(labels.length), features, labels), labels);
    }
  }

  /**
   * The second half of {@link #computeGradients(float[], int[])}: queues the training-mode forward
   * and backward passes of a batch {@link #stage}d by this classifier.
   *
   * @throws IllegalArgumentException if another classifier staged it
   */
  public FitLoop.Step computeGradients(Staged staged) {
    try (CallGuard.Scope call = store.guard().enter("classifier.computeGradients")) {
      if (staged.owner != this) {
        throw new IllegalArgumentException(
            modelName + ": the batch was staged by another classifier's executor");
      }
      BoundExecutor exec = staged.exec;
      exec.forward(true);
      exec.backwardLoss();
      store.gradientsConsumed();
      int[] copy = staged.labels.clone();
      return () -> score(exec.output(0).toFloatArray(), copy);
    }
  }

  /** The classifier graph (owned by this classifier), e.g. to copy for a replica. */
  public Graph graph() {
    return graph;
  }

  /** {@link #fit(DataLoader, Dataset, int, Optimizer, TrainingListener...)} without validation. */
  public FitResult fit(
      DataLoader train, int epochs, Optimizer optimizer, TrainingListener... listeners) {
    return fit(train, null, epochs, optimizer, listeners);
  }

  /** Mean loss and accuracy over {@code data}, in inference mode, in batches of 500. */
  public Evaluation evaluate(Dataset data) {
    try (CallGuard.Scope call = store.guard().enter("classifier.evaluate")) {
      checkFeatures(data);
      double loss = 0;
      int correct = 0;
      for (Batch b : data.batches(EVAL_BATCH, false, 0)) {
        Result r = evaluateBatch(b.features(), b.labels());
        loss += r.lossSum();
        correct += r.correct();
      }
      return new Evaluation(loss / data.size(), (double) correct / data.size(), data.size());
    }
  }

  /** The most probable class of every example of {@code data}, in inference mode. */
  public int[] predict(Dataset data) {
    try (CallGuard.Scope call = store.guard().enter("classifier.predict")) {
      checkFeatures(data);
      int[] classes = new int[data.size()];
      int at = 0;
      for (Batch b : data.batches(EVAL_BATCH, false, 0)) {
        float[] probs = predict(b.features(), b.size());
        for (int i = 0; i < b.size(); i++) {
          classes[at++] = argmax(probs, i);
        }
      }
      return classes;
    }
  }

  /** Loss and accuracy counts on one batch, in inference mode; nothing is trained. */
  public Result evaluateBatch(float[] features, int[] labels) {
    try (CallGuard.Scope call = store.guard().enter("classifier.evaluateBatch")) {
      BoundExecutor exec = load(executor(labels.length), features, labels);
      exec.forward(false);
      return score(exec.output(0).toFloatArray(), labels);
    }
  }

  /** Class probabilities for {@code batch} examples, row-major {@code [batch, classes]}. */
  public float[] predict(float[] features, int batch) {
    try (CallGuard.Scope call = store.guard().enter("classifier.predict")) {
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
  }

  /**
   * Sum of cross-entropy losses and number of correct predictions over one batch.
   *
   * @param lossSum sum over the batch of {@code -log p(label)}
   * @param correct examples whose most probable class is the label
   * @param count examples in the batch
   */
  public record Result(double lossSum, int correct, int count) {
    /** Mean loss over the batch. */
    public double meanLoss() {
      return lossSum / count;
    }

    /** Fraction of correct predictions. */
    public double accuracy() {
      return (double) correct / count;
    }
  }

  private BoundExecutor load(BoundExecutor exec, float[] features, int[] labels) {
    checkBatch(features, labels);
    exec.input(0).copyFrom(features);
    float[] y = new float[labels.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = labels[i];
    }
    exec.label(0).copyFrom(y);
    return exec;
  }

  /**
   * Checks one batch before it reaches MXNet: as many examples of features as labels, every feature
   * finite, every label a class. MXNet would train on NaN silently (and poison the weights) and
   * clip an out-of-range label to a class.
   */
  private void checkBatch(float[] features, int[] labels) {
    if (features == null || labels == null) {
      throw new IllegalArgumentException(
          modelName
              + ": the batch's "
              + (features == null ? "features are" : "labels are")
              + " null");
    }
    int size = featureSize();
    if (features.length != (long) labels.length * size) {
      throw new IllegalArgumentException(
          modelName
              + ": "
              + labels.length
              + " labels need "
              + labels.length
              + " × "
              + size
              + " = "
              + ((long) labels.length * size)
              + " feature values (input shape "
              + graph.inputs().get(0).shape()
              + "), got "
              + features.length
              + (features.length % size == 0 ? " (" + features.length / size + " examples)" : ""));
    }
    requireFinite(
        features,
        size,
        "training and evaluation data must be finite (a NaN would silently poison the weights)");
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] < 0 || labels[i] >= classes) {
        throw new IllegalArgumentException(
            modelName
                + ": label "
                + labels[i]
                + " of example "
                + i
                + " is not a class: the softmax has "
                + classes
                + " classes, 0 to "
                + (classes - 1));
      }
    }
  }

  private void checkFeatures(Dataset data) {
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
    if (data.numClasses() > classes) {
      throw new IllegalArgumentException(
          modelName
              + "'s softmax has "
              + classes
              + " classes (0 "
              + "to "
              + (classes - 1)
              + "), the dataset declares "
              + data.numClasses()
              + "; give the last layer "
              + data.numClasses()
              + " outputs, or a dataset of at most "
              + classes
              + " classes");
    }
  }

  private int featureSize() {
    int n = 1;
    Shape input = graph.inputs().get(0).shape();
    for (int d : input.dims()) {
      if (d == Shape.STEPS) {
        throw new IllegalStateException(
            modelName
                + ": the classifier reads examples of a fixed "
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

  private int argmax(float[] probs, int row) {
    int best = 0;
    for (int c = 1; c < classes; c++) {
      if (probs[row * classes + c] > probs[row * classes + best]) {
        best = c;
      }
    }
    return best;
  }

  private Result score(float[] probs, int[] labels) {
    double loss = 0;
    int correct = 0;
    for (int i = 0; i < labels.length; i++) {
      int best = argmax(probs, i);
      if (best == labels[i]) {
        correct++;
      }
      loss -= Math.log(Math.max(probs[i * classes + labels[i]], 1e-12f));
    }
    return new Result(loss, correct, labels.length);
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
              + " classifier is closed; call the model's classifier() again for a new one over "
              + "the same parameters");
    }
    if (batch < 1) {
      throw new IllegalArgumentException(modelName + ": a batch needs at least one " + "example");
    }
    if (graph.unrolledSteps() > 0) {
      featureSize(); // a cell unrolled over STEPS: refused here, before binding a wrong length
    }
  }

  private BoundExecutor bind(int batch) {
    List<Shape> shapes = graph.inputs().stream().map(in -> withBatch(in, batch)).toList();
    return new BoundExecutor(
        graph, shapes, List.of(Shape.of(batch)), store, GradReq.WRITE, GradReq.NULL, false);
  }

  /** The input array of the executor for {@code batch}, for loops that fill it directly. */
  public Tensor inputArray(int batch) {
    try (CallGuard.Scope call = store.guard().enter("classifier.inputArray")) {
      return executor(batch).input(0);
    }
  }

  private Shape withBatch(InputSpec in, int batch) {
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

  /**
   * Frees the classifier's executors and graph (not the model's parameters). Idempotent. The model
   * owns its classifier and closes it with itself; closing it earlier is harmless: the model's next
   * {@code classifier()} makes a new one over the same parameters.
   */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      executors.values().forEach(BoundExecutor::close);
      executors.clear();
      trainingExecutors.values().forEach(pair -> List.of(pair).forEach(BoundExecutor::close));
      trainingExecutors.clear();
      graph.close();
    }
  }
}
