package dev.kiln.runtime.train;

import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.CallGuard;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.Optimizer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A classifier view of a model whose last node is a softmax over {@code [BATCH, classes]}: the same
 * graph with that softmax replaced by MXNet's {@code SoftmaxOutput}, which adds a label input and
 * back-propagates the mean cross-entropy without a head gradient. Its metric is the accuracy.
 *
 * <p>It binds the model's own parameter arrays, so training here trains the model itself: there is
 * nothing to copy in before or out after. Executors are cached per batch size. Each training step
 * overwrites the shared gradient arrays and consumes them at once; the model's own {@code backward}
 * starts from zero gradients afterwards. The machinery is {@link Supervised}'s, shared with the
 * {@link Trainer} of models with a loss head.
 */
public final class Classifier implements Fitter {
  private static final int EVAL_BATCH = 500;

  private final String modelName;
  private final Supervised core;
  private final int classes;

  /**
   * The classifier of the model called {@code modelName} whose parameters are in {@code store}: it
   * takes ownership of {@code graph}, the model's graph built with its softmax as MXNet's {@code
   * SoftmaxOutput} (and freed again if this fails).
   */
  public Classifier(String modelName, ParameterStore store, Graph graph) {
    this.modelName = modelName;
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
    ClassHead head = new ClassHead();
    this.core = new Supervised(modelName, "classifier", store, graph, head);
    Shape out;
    try (BoundExecutor probe = core.bindProbe(1)) {
      out = probe.output(0).shape();
    }
    if (out.rank() != 2) {
      close();
      throw new IllegalArgumentException(
          modelName + ": a classifier's softmax must " + "have shape [BATCH, classes], got " + out);
    }
    this.classes = out.dim(1);
  }

  /** {@code accuracy}: the fraction of examples whose most probable class is the label. */
  @Override
  public String metric() {
    return "accuracy";
  }

  /** Number of classes (the softmax's width). */
  public int classes() {
    return classes;
  }

  /**
   * Fixes the sizes of the model's free dimensions in the examples this trains on and evaluates,
   * e.g. {@code Map.of("H", 28, "W", 28)} (see {@link Supervised#fixSizes}).
   *
   * @return this classifier
   */
  public Classifier fixSizes(Map<String, Integer> sizes) {
    try (CallGuard.Scope call = core.store().guard().enter("classifier.fixSizes")) {
      core.fixSizes(sizes);
    }
    return this;
  }

  /** The shared training machinery, for trainers over several replicas. */
  public Supervised core() {
    return core;
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
    try (CallGuard.Scope call = core.store().guard().enter("classifier.trainBatch")) {
      float[] y = asFloat(labels);
      BoundExecutor exec = core.trainBatch(features, y, labels.length, optimizer);
      return result(core.head().score(exec.output(0).toFloatArray(), y, labels.length));
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
    try (CallGuard.Scope call = core.store().guard().enterLeavingDeferred("classifier.trainStep")) {
      core.step(features, asFloat(labels), labels.length, optimizer, true);
    }
  }

  @Override
  public FitResult fit(
      DataLoader train,
      Dataset validation,
      int epochs,
      Optimizer optimizer,
      TrainingListener... listeners) {
    return core.fit(train, validation, epochs, optimizer, List.of(listeners));
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

  /** The first half of {@link #computeGradients(float[], int[])}; see {@link Supervised#stage}. */
  public Supervised.Staged stage(float[] features, int[] labels) {
    return core.stage(features, asFloat(labels), labels.length);
  }

  /**
   * The second half of {@link #computeGradients(float[], int[])}: queues the passes of a batch
   * {@link #stage}d by this classifier.
   *
   * @throws IllegalArgumentException if another classifier staged it
   */
  public FitLoop.Step computeGradients(Supervised.Staged staged) {
    return core.computeGradients(staged);
  }

  /** The classifier graph (owned by this classifier), e.g. to copy for a replica. */
  public Graph graph() {
    return core.graph();
  }

  /** Mean loss and accuracy over {@code data}, in inference mode, in batches of 500. */
  @Override
  public Evaluation evaluate(Dataset data) {
    return core.evaluate(data);
  }

  /** The most probable class of every example of {@code data}, in inference mode. */
  public int[] predict(Dataset data) {
    try (CallGuard.Scope call = core.store().guard().enter("classifier.predict")) {
      core.checkDataset(data);
      int[] result = new int[data.size()];
      int at = 0;
      for (Batch b : data.batches(EVAL_BATCH, false, 0)) {
        float[] probs = core.output(b.features(), b.size());
        for (int i = 0; i < b.size(); i++) {
          result[at++] = argmax(probs, i);
        }
      }
      return result;
    }
  }

  /** Loss and accuracy counts on one batch, in inference mode; nothing is trained. */
  public Result evaluateBatch(float[] features, int[] labels) {
    try (CallGuard.Scope call = core.store().guard().enter("classifier.evaluateBatch")) {
      return result(core.evaluateBatch(features, asFloat(labels), labels.length));
    }
  }

  /** Class probabilities for {@code batch} examples, row-major {@code [batch, classes]}. */
  public float[] predict(float[] features, int batch) {
    try (CallGuard.Scope call = core.store().guard().enter("classifier.predict")) {
      return core.output(features, batch);
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

  private static Result result(Score s) {
    return new Result(s.lossSum(), (int) Math.round(s.metricSum()), s.count());
  }

  private static float[] asFloat(int[] labels) {
    if (labels == null) {
      return null;
    }
    float[] y = new float[labels.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = labels[i];
    }
    return y;
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

  /** The input array of the executor for {@code batch}, for loops that fill it directly. */
  public Tensor inputArray(int batch) {
    return core.inputArray(batch);
  }

  /** Whether {@link #close()} ran. */
  public boolean isClosed() {
    return core.isClosed();
  }

  /**
   * Frees the classifier's executors and graph (not the model's parameters). Idempotent. The model
   * owns its classifier and closes it with itself; closing it earlier is harmless: the model's next
   * {@code classifier()} makes a new one over the same parameters.
   */
  @Override
  public void close() {
    core.close();
  }

  /** Class indices as labels, cross-entropy as the loss, accuracy as the metric. */
  private final class ClassHead implements Supervised.Head {
    @Override
    public String metric() {
      return "accuracy";
    }

    @Override
    public Shape labelShape(int batch) {
      return Shape.of(batch);
    }

    @Override
    public int labelSize() {
      return 1;
    }

    @Override
    public void checkLabels(float[] labels) {
      for (int i = 0; i < labels.length; i++) {
        float l = labels[i];
        if (!(l >= 0 && l < classes) || l != Math.rint(l)) {
          throw new IllegalArgumentException(
              modelName
                  + ": label "
                  + (l == Math.rint(l) ? Integer.toString((int) l) : Float.toString(l))
                  + " of example "
                  + i
                  + " is not a class: the softmax has "
                  + classes
                  + " classes, 0 to "
                  + (classes - 1));
        }
      }
    }

    @Override
    public Score score(float[] probs, float[] labels, int examples) {
      double loss = 0;
      int correct = 0;
      for (int i = 0; i < examples; i++) {
        int label = (int) labels[i];
        if (argmax(probs, i) == label) {
          correct++;
        }
        loss -= Math.log(Math.max(probs[i * classes + label], 1e-12f));
      }
      return new Score(loss, correct, examples);
    }

    @Override
    public void checkDataset(Dataset data) {
      if (data.hasTargets()) {
        throw new IllegalArgumentException(
            modelName
                + " is a classifier: it trains on class labels, but the dataset has "
                + data.targetSize()
                + " float targets per example (Dataset.withTargets is for models with a loss head)");
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

    @Override
    public float[] labels(Batch batch) {
      return batch.labelsAsFloat();
    }
  }
}
