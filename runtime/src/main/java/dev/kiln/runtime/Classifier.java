package dev.kiln.runtime;

import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.BoundExecutor.GradReq;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.train.BatchStats;
import dev.kiln.runtime.train.EpochStats;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitContext;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.NanGuard;
import dev.kiln.runtime.train.TrainingListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A classifier view of a model whose last node is a softmax over {@code [BATCH, classes]}: the
 * same graph with that softmax replaced by MXNet's {@code SoftmaxOutput}, which adds a label
 * input and back-propagates the mean cross-entropy without a head gradient.
 *
 * <p>It binds the model's own parameter arrays, so training here trains the model itself: there
 * is nothing to copy in before or out after. Executors are cached per batch size. Each training
 * step overwrites the shared gradient arrays and consumes them at once; the model's own {@code
 * backward} starts from zero gradients afterwards.
 */
public final class Classifier implements AutoCloseable {
  private final ModelRuntime model;
  private final Graph graph;
  private final Map<Integer, BoundExecutor> executors = new HashMap<>();
  private static final int EVAL_BATCH = 500;

  private final int classes;
  private boolean closed;

  Classifier(ModelRuntime model, Graph graph) {
    this.model = model;
    this.graph = graph;
    if (graph.labels().size() != 1 || graph.outputs().size() != 1) {
      graph.close();
      throw new IllegalArgumentException(model.modelName() + " is not a classifier: it needs "
          + "exactly one output, a softmax");
    }
    BoundExecutor probe = executor(1);
    Shape out = probe.output(0).shape();
    if (out.rank() != 2) {
      close();
      throw new IllegalArgumentException(model.modelName() + ": a classifier's softmax must "
          + "have shape [BATCH, classes], got " + out);
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
    BoundExecutor exec = load(features, labels);
    exec.forward(true);
    exec.backwardLoss();
    model.gradientsOverwritten();
    optimizer.step(model.trainableSlots());
    return score(exec.output(0).toFloatArray(), labels);
  }

  /**
   * Trains for {@code epochs} passes over {@code train}, starting from the model's current
   * parameters and leaving the trained ones in the model. Listeners see every batch and epoch
   * and may stop training early; a non-finite loss always stops it (MXNet would carry NaN on
   * silently).
   *
   * @param train the training batches (see {@link DataLoader#shuffled})
   * @param validation evaluated after every epoch, or null
   * @param epochs passes over the training data, at least 1
   * @param optimizer applied after every batch
   * @param listeners progress, metrics, early stopping, ...
   * @return every finished epoch and why training stopped early, if it did
   */
  public FitResult fit(DataLoader train, Dataset validation, int epochs, Optimizer optimizer,
      TrainingListener... listeners) {
    if (epochs < 1) {
      throw new IllegalArgumentException("epochs must be at least 1, got " + epochs);
    }
    checkFeatures(train.dataset());
    if (validation != null) {
      checkFeatures(validation);
    }
    List<TrainingListener> all = new ArrayList<>(List.of(listeners));
    all.add(0, new NanGuard());
    FitContext context = new FitContext(model.modelName(), epochs, train.batchesPerEpoch(),
        train.dataset().size());
    all.forEach(l -> l.onFitStart(context));
    List<EpochStats> history = new ArrayList<>();
    for (int epoch = 1; epoch <= epochs && context.stopReason() == null; epoch++) {
      long start = System.nanoTime();
      double lossSum = 0;
      int correct = 0;
      int seen = 0;
      int index = 0;
      for (Batch b : train.epoch(epoch)) {
        Result r = trainBatch(b.features(), b.labels(), optimizer);
        lossSum += r.lossSum();
        correct += r.correct();
        seen += r.count();
        BatchStats stats = new BatchStats(epoch, ++index, r.meanLoss(), r.accuracy(), r.count());
        for (TrainingListener l : all) {
          l.onBatchEnd(context, stats);
        }
        if (context.stopReason() != null) {
          break;
        }
      }
      if (context.stopReason() != null && seen < train.dataset().size()) {
        break;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Evaluation val = validation == null ? null : evaluate(validation);
      EpochStats stats = new EpochStats(epoch, lossSum / seen, (double) correct / seen, val,
          seconds);
      history.add(stats);
      all.forEach(l -> l.onEpochEnd(context, stats));
    }
    FitResult result = new FitResult(history, context.stopReason());
    all.forEach(l -> l.onFitEnd(context, result));
    return result;
  }

  /** {@link #fit(DataLoader, Dataset, int, Optimizer, TrainingListener...)} without validation. */
  public FitResult fit(DataLoader train, int epochs, Optimizer optimizer,
      TrainingListener... listeners) {
    return fit(train, null, epochs, optimizer, listeners);
  }

  /** Mean loss and accuracy over {@code data}, in inference mode, in batches of 500. */
  public Evaluation evaluate(Dataset data) {
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

  /** The most probable class of every example of {@code data}, in inference mode. */
  public int[] predict(Dataset data) {
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

  /** Loss and accuracy counts on one batch, in inference mode; nothing is trained. */
  public Result evaluateBatch(float[] features, int[] labels) {
    BoundExecutor exec = load(features, labels);
    exec.forward(false);
    return score(exec.output(0).toFloatArray(), labels);
  }

  /** Class probabilities for {@code batch} examples, row-major {@code [batch, classes]}. */
  public float[] predict(float[] features, int batch) {
    BoundExecutor exec = executor(batch);
    exec.input(0).copyFrom(features);
    exec.forward(false);
    return exec.output(0).toFloatArray();
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

  private BoundExecutor load(float[] features, int[] labels) {
    if (labels.length == 0) {
      throw new IllegalArgumentException(model.modelName() + ": a batch needs at least one "
          + "example");
    }
    BoundExecutor exec = executor(labels.length);
    exec.input(0).copyFrom(features);
    float[] y = new float[labels.length];
    for (int i = 0; i < y.length; i++) {
      if (labels[i] < 0 || labels[i] >= classes) {
        throw new IllegalArgumentException(model.modelName() + ": label " + labels[i]
            + " of example " + i + " is outside [0, " + classes + ")");
      }
      y[i] = labels[i];
    }
    exec.label(0).copyFrom(y);
    return exec;
  }

  private void checkFeatures(Dataset data) {
    int expected = featureSize();
    if (data.featureSize() != expected) {
      throw new IllegalArgumentException(model.modelName() + " takes " + expected
          + " features per example (input shape " + graph.inputs().get(0).shape() + "), the "
          + "dataset has " + data.featureSize());
    }
    if (data.numClasses() > classes) {
      throw new IllegalArgumentException(model.modelName() + " has " + classes + " classes, the "
          + "dataset has labels up to " + (data.numClasses() - 1));
    }
  }

  private int featureSize() {
    int n = 1;
    for (int d : graph.inputs().get(0).shape().dims()) {
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
    if (closed) {
      throw new IllegalStateException(model.modelName() + " classifier is closed");
    }
    BoundExecutor exec = executors.get(batch);
    if (exec == null) {
      List<Shape> shapes = graph.inputs().stream().map(in -> withBatch(in, batch)).toList();
      exec = new BoundExecutor(graph, shapes, List.of(Shape.of(batch)), model.store(),
          GradReq.WRITE, GradReq.NULL);
      executors.put(batch, exec);
    }
    return exec;
  }

  /** The input array of the executor for {@code batch}, for loops that fill it directly. */
  public Tensor inputArray(int batch) {
    return executor(batch).input(0);
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

  /** Frees the classifier's executors and graph (not the model's parameters). Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      executors.values().forEach(BoundExecutor::close);
      executors.clear();
      graph.close();
    }
  }
}
