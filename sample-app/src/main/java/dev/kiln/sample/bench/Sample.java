package dev.kiln.sample.bench;

/**
 * One timed run: {@code impl} trained {@code steps} steps of {@code batch} examples in {@code
 * seconds}.
 */
record Sample(Impl impl, int batch, int rep, int steps, double seconds) {
  /** Steps per second. */
  double stepsPerSecond() {
    return steps / seconds;
  }
}
