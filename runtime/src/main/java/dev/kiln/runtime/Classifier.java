package dev.kiln.runtime;

import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.BoundExecutor.GradReq;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
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

  private Result score(float[] probs, int[] labels) {
    double loss = 0;
    int correct = 0;
    for (int i = 0; i < labels.length; i++) {
      int best = 0;
      for (int c = 1; c < classes; c++) {
        if (probs[i * classes + c] > probs[i * classes + best]) {
          best = c;
        }
      }
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
