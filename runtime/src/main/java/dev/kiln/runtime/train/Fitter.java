package dev.kiln.runtime.train;

import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.optim.Optimizer;

/**
 * What trains a model against known answers, whichever head it has: the {@link Classifier} of a
 * model that ends in a softmax (class labels, cross-entropy, accuracy) or the {@link Trainer} of a
 * model that ends in a loss head (float targets, the head's loss and metric). Code that trains any
 * model takes one from {@link dev.kiln.runtime.KilnModel#fitter()}; both train the model's own
 * parameters, with the same loop, listeners, early stopping and gradient check.
 */
public sealed interface Fitter extends AutoCloseable permits Classifier, Trainer {
  /**
   * The metric reported beside the loss ({@link FitContext#metric()}): {@code accuracy}, {@code
   * mse}, {@code mae}, {@code binary_accuracy}, or {@code loss} for a {@code @Loss} head.
   */
  String metric();

  /**
   * Trains for {@code epochs} passes over {@code train}, starting from the model's current
   * parameters and leaving the trained ones in the model. Listeners see every batch and epoch and
   * may stop training early; a non-finite loss always stops it (MXNet would carry NaN on silently),
   * so does a gradient an update refused (see {@link FitLoop}).
   *
   * @param train the training batches (see {@link DataLoader#shuffled}): class labels for a
   *     classifier, targets ({@link Dataset#withTargets}) for a trainer
   * @param validation evaluated after every epoch, or null
   * @param epochs passes over the training data, at least 1
   * @param optimizer applied after every batch
   * @param listeners progress, metrics, early stopping, ...
   * @return every finished epoch and why training stopped early, if it did
   */
  FitResult fit(
      DataLoader train,
      Dataset validation,
      int epochs,
      Optimizer optimizer,
      TrainingListener... listeners);

  /** {@link #fit(DataLoader, Dataset, int, Optimizer, TrainingListener...)} without validation. */
  default FitResult fit(
      DataLoader train, int epochs, Optimizer optimizer, TrainingListener... listeners) {
    return fit(train, null, epochs, optimizer, listeners);
  }

  /** Mean loss and metric over {@code data}, in inference mode, in batches of 500. */
  Evaluation evaluate(Dataset data);

  /** Frees the executors (not the model's parameters). Idempotent. */
  @Override
  void close();
}
