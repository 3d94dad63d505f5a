package dev.kiln.runtime.train;

/**
 * One finished epoch.
 *
 * @param epoch the epoch, from 1
 * @param trainLoss mean training loss over the epoch's batches, weighted by examples
 * @param trainMetric the trainer's metric over the epoch (a classifier's training accuracy)
 * @param validation loss and metric on the validation set, or null when there is none
 * @param seconds wall time of the epoch's training (validation excluded)
 * @param metricName what {@code trainMetric} is ({@link FitContext#metric()})
 */
public record EpochStats(
    int epoch,
    double trainLoss,
    double trainMetric,
    Evaluation validation,
    double seconds,
    String metricName) {
  /** A classifier's epoch: {@code trainMetric} is the accuracy. */
  public EpochStats(
      int epoch, double trainLoss, double trainMetric, Evaluation validation, double seconds) {
    this(epoch, trainLoss, trainMetric, validation, seconds, "accuracy");
  }

  /**
   * A classifier's training accuracy over the epoch.
   *
   * @throws IllegalStateException when the metric is another one (a loss head's {@code mse}, ...),
   *     naming it: read {@link #trainMetric()}
   */
  public double trainAccuracy() {
    return Metrics.accuracy(metricName, trainMetric);
  }
}
