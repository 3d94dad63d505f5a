package dev.kiln.runtime.train;

/** The accessors that read a metric as a classifier's accuracy. */
final class Metrics {
  private Metrics() {}

  /** {@code value} when {@code name} is {@code accuracy}; otherwise refuses, naming the metric. */
  static double accuracy(String name, double value) {
    if (!name.equals("accuracy")) {
      throw new IllegalStateException(
          "this metric is "
              + name
              + " (a model with a loss head), not a classifier's accuracy; read metric()");
    }
    return value;
  }
}
