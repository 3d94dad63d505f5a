package dev.kiln.runtime.train;

/**
 * Loss and metric of a model over a dataset.
 *
 * @param loss mean loss per example (a classifier's cross-entropy)
 * @param metric the mean of the trainer's metric (a classifier's fraction of examples whose most
 *     probable class is the label)
 * @param examples examples evaluated
 * @param metricName what {@code metric} is ({@link FitContext#metric()}: {@code accuracy}, {@code
 *     mse}, {@code mae}, {@code binary_accuracy} or {@code loss})
 */
public record Evaluation(double loss, double metric, int examples, String metricName) {
  /** A classifier's evaluation: {@code metric} is the accuracy. */
  public Evaluation(double loss, double metric, int examples) {
    this(loss, metric, examples, "accuracy");
  }

  /**
   * The accuracy of a classifier's evaluation.
   *
   * @throws IllegalStateException when the metric is another one (a loss head's {@code mse}, ...),
   *     naming it: read {@link #metric()}
   */
  public double accuracy() {
    return Metrics.accuracy(metricName, metric);
  }
}
