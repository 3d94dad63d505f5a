package dev.kiln.runtime.train;

import dev.kiln.ops.LossOp;
import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.CallGuard;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.Optimizer;
import java.util.List;

/**
 * The trainer of a model whose only output is a loss head ({@code @L2Loss}, {@code @L1Loss},
 * {@code @LogisticLoss}, {@code @Loss}): the same graph with the head built as MXNet's {@code
 * MakeLoss} over each value's loss (see {@link LossOp}), trained on a {@link Dataset} with float
 * targets ({@link Dataset#withTargets}) with the classifier's loop, listeners, early stopping,
 * gradient check and data-parallel paths ({@link Supervised}).
 *
 * <p>The loss of an example is the mean over its values of the head's loss (half the squared error,
 * the absolute error, the binary cross-entropy, or {@code @Loss}'s own value), averaged over the
 * batch. The metric beside it ({@link #metric()}): the mean squared error ({@code mse}) for
 * {@code @L2Loss}, the mean absolute error ({@code mae}) for {@code @L1Loss}, the binary accuracy
 * ({@code binary_accuracy}: values whose cross-entropy is below {@code log 2}, which for targets 0
 * and 1 is {@code p > 0.5} exactly where the target is 1) for {@code @LogisticLoss}, and the loss
 * again ({@code loss}) for {@code @Loss}. The targets go to the head's label variable, or, for
 * {@code @Loss}, to the model's second input when it has one.
 */
public final class Trainer implements Fitter {
  private static final double LOG_2 = Math.log(2);

  private final String modelName;
  private final LossOp.Kind kind;
  private final Supervised core;
  private final Shape target;
  private final int targetValues;

  /**
   * The trainer of the model called {@code modelName} whose parameters are in {@code store}, with a
   * loss head of {@code kind}: it takes ownership of {@code graph}, the model's graph built for
   * training (and frees it again if this fails).
   */
  public Trainer(String modelName, LossOp.Kind kind, ParameterStore store, Graph graph) {
    this.modelName = modelName;
    this.kind = kind;
    if (graph.outputs().size() != 1 || graph.inputs().isEmpty()) {
      graph.close();
      throw new IllegalArgumentException(
          modelName + " has no trainer: it needs one input and exactly one output, a loss head");
    }
    boolean labelled = !graph.labels().isEmpty();
    if (kind != LossOp.Kind.LOSS && !labelled) {
      graph.close();
      throw new IllegalArgumentException(
          modelName + ": the training graph's " + kind + " head has no label variable");
    }
    int maxInputs = labelled ? 1 : 2;
    if (graph.inputs().size() > maxInputs) {
      graph.close();
      throw new IllegalArgumentException(
          modelName
              + " has no trainer: it feeds "
              + (labelled
                  ? "one input (the targets go to the loss head)"
                  : "at most two inputs " + "(the features, and the targets of its @Loss)")
              + ", but the model has "
              + graph.inputs().size());
    }
    try {
      target =
          labelled
              ? graph.labelShape(0)
              : graph.inputs().size() > 1 ? graph.inputs().get(1).shape() : null;
    } catch (RuntimeException e) {
      graph.close();
      throw e;
    }
    long values = 0;
    if (target != null) {
      values = 1;
      int[] dims = target.dims();
      for (int d = 1; d < dims.length; d++) {
        values *= dims[d];
      }
      if (dims.length == 0 || dims[0] != Shape.BATCH || values <= 0) {
        graph.close();
        throw new IllegalArgumentException(
            modelName + ": a trainer's targets are BATCH followed by known sizes, got " + target);
      }
    }
    this.targetValues = (int) values;
    this.core = new Supervised(modelName, "trainer", store, graph, new Head());
  }

  /**
   * The metric reported beside the loss: {@code mse}, {@code mae}, {@code binary_accuracy} or
   * {@code loss}.
   */
  @Override
  public String metric() {
    return switch (kind) {
      case L2 -> "mse";
      case L1 -> "mae";
      case LOGISTIC -> "binary_accuracy";
      case LOSS -> "loss";
    };
  }

  /** The shape of the targets, {@code [BATCH, ...]}, or null for a {@code @Loss} that has none. */
  public Shape targetShape() {
    return target;
  }

  /** The kind of the model's loss head. */
  public LossOp.Kind kind() {
    return kind;
  }

  /** The shared training machinery, for trainers over several replicas. */
  public Supervised core() {
    return core;
  }

  /**
   * One training step: forward in training mode, backward of the loss, then {@code optimizer} on
   * every parameter.
   *
   * @param features the batch's inputs, row-major
   * @param targets the batch's targets, row-major, {@link #targetShape()} each
   * @param examples examples in the batch
   * @return the batch's loss and metric sums
   */
  public Score trainBatch(float[] features, float[] targets, int examples, Optimizer optimizer) {
    try (CallGuard.Scope call = core.store().guard().enter("trainer.trainBatch")) {
      BoundExecutor exec = core.trainBatch(features, targets, examples, optimizer);
      return core.head().score(exec.output(0).toFloatArray(), targets, examples);
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

  @Override
  public Evaluation evaluate(Dataset data) {
    return core.evaluate(data);
  }

  /**
   * One training step like {@link #trainBatch}, but reading nothing back; see {@link
   * Classifier#trainStep}: the step's gradient check is made by the model's next call.
   *
   * @param features the batch's inputs, row-major
   * @param targets the batch's targets, row-major, {@link #targetShape()} each
   * @param examples examples in the batch
   */
  public void trainStep(float[] features, float[] targets, int examples, Optimizer optimizer) {
    try (CallGuard.Scope call = core.store().guard().enterLeavingDeferred("trainer.trainStep")) {
      core.step(features, targets, examples, optimizer, true);
    }
  }

  /** The training graph (owned by this trainer), e.g. to copy for a replica. */
  public Graph graph() {
    return core.graph();
  }

  /** Whether {@link #close()} ran. */
  public boolean isClosed() {
    return core.isClosed();
  }

  /**
   * Frees the trainer's executors and graph (not the model's parameters). Idempotent. The model
   * owns its trainer and closes it with itself; closing it earlier is harmless: the model's next
   * {@code trainer()} makes a new one over the same parameters.
   */
  @Override
  public void close() {
    core.close();
  }

  /** The per-value losses the training graph outputs, scored as the kind says. */
  private final class Head implements Supervised.Head {
    @Override
    public String metric() {
      return Trainer.this.metric();
    }

    @Override
    public Shape labelShape(int batch) {
      int[] dims = target.dims();
      dims[0] = batch;
      return Shape.of(dims);
    }

    @Override
    public int labelSize() {
      return targetValues;
    }

    @Override
    public void checkLabels(float[] labels) {
      int size = Math.max(1, labelSize());
      for (int i = 0; i < labels.length; i++) {
        float t = labels[i];
        if (!Float.isFinite(t) || kind == LossOp.Kind.LOGISTIC && (t < 0 || t > 1)) {
          throw new IllegalArgumentException(
              modelName
                  + ": target "
                  + (i % size)
                  + " of example "
                  + (i / size)
                  + " is "
                  + t
                  + "; "
                  + (kind == LossOp.Kind.LOGISTIC
                      ? "@LogisticLoss targets are probabilities in [0, 1]"
                      : "targets must be finite (a NaN would silently poison the weights)"));
        }
      }
    }

    @Override
    public Score score(float[] losses, float[] targets, int examples) {
      int values = losses.length / examples;
      double loss = 0;
      double metric = 0;
      for (int i = 0; i < examples; i++) {
        double sum = 0;
        int below = 0;
        for (int v = 0; v < values; v++) {
          double o = losses[i * values + v];
          sum += o;
          if (o < LOG_2) {
            below++;
          }
        }
        double mean = sum / values;
        loss += kind == LossOp.Kind.L2 ? mean / 2 : mean;
        metric += kind == LossOp.Kind.LOGISTIC ? (double) below / values : mean;
      }
      return new Score(loss, metric, examples);
    }

    @Override
    public void checkDataset(Dataset data) {
      if (labelSize() == 0) {
        return;
      }
      if (!data.hasTargets()) {
        throw new IllegalArgumentException(
            modelName
                + " trains on float targets ("
                + labelSize()
                + " per example, the shape "
                + target
                + "), but the dataset has class labels; make it with Dataset.withTargets");
      }
      if (data.targetSize() != labelSize()) {
        throw new IllegalArgumentException(
            modelName
                + "'s targets have "
                + labelSize()
                + " values per example (the shape "
                + target
                + "), the dataset's have "
                + data.targetSize());
      }
    }

    @Override
    public float[] labels(Batch batch) {
      return labelSize() == 0 ? new float[0] : batch.targets();
    }
  }
}
