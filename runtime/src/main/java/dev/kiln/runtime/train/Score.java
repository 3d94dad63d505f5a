package dev.kiln.runtime.train;

/**
 * What one batch scored: sums over its examples of the loss and of the metric.
 *
 * @param lossSum sum over the examples of each one's loss
 * @param metricSum sum over the examples of each one's metric (a classifier's correct count)
 * @param count examples scored
 */
public record Score(double lossSum, double metricSum, int count) {
  /** Mean loss over the batch. */
  public double meanLoss() {
    return lossSum / count;
  }

  /** Mean metric over the batch. */
  public double meanMetric() {
    return metricSum / count;
  }
}
