package dev.kiln.runtime.train;

/**
 * One finished epoch.
 *
 * @param epoch the epoch, from 1
 * @param trainLoss mean training loss over the epoch's batches, weighted by examples
 * @param trainMetric the trainer's metric over the epoch ({@link FitContext#metric()}: a
 *     classifier's training accuracy)
 * @param validation loss and metric on the validation set, or null when there is none
 * @param seconds wall time of the epoch's training (validation excluded)
 */
public record EpochStats(
    int epoch, double trainLoss, double trainMetric, Evaluation validation, double seconds) {
  /** The training metric, for a classifier its accuracy. */
  public double trainAccuracy() {
    return trainMetric;
  }
}
