package dev.kiln.runtime.train;

/**
 * One training batch.
 *
 * @param epoch the epoch, from 1
 * @param batch the batch within the epoch, from 1
 * @param loss the batch's mean loss (a classifier's cross-entropy)
 * @param metric the batch's mean of the trainer's metric (a classifier's fraction of correct
 *     predictions)
 * @param examples examples in the batch
 * @param metricName what {@code metric} is ({@link FitContext#metric()})
 */
public record BatchStats(
    int epoch, int batch, double loss, double metric, int examples, String metricName) {
  /** A classifier's batch: {@code metric} is the accuracy. */
  public BatchStats(int epoch, int batch, double loss, double metric, int examples) {
    this(epoch, batch, loss, metric, examples, "accuracy");
  }

  /**
   * A classifier's accuracy on the batch.
   *
   * @throws IllegalStateException when the metric is another one, naming it: read {@link #metric()}
   */
  public double accuracy() {
    return Metrics.accuracy(metricName, metric);
  }
}
