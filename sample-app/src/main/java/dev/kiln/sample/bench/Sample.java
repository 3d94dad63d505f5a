package dev.kiln.sample.bench;

/**
 * One timed run: {@code impl} trained {@code workload} for {@code steps} steps of {@code batch}
 * examples in {@code seconds}, in round {@code rep} (every implementation of a workload and batch
 * size runs once per round, back to back).
 */
record Sample(Workload workload, Impl impl, int batch, int rep, int steps, double seconds) {
  /** Steps per second. */
  double stepsPerSecond() {
    return steps / seconds;
  }

  /** Microseconds per step. */
  double microsPerStep() {
    return seconds * 1e6 / steps;
  }
}
