package dev.kiln.bench;

/**
 * One timed run: {@code impl} trained {@code workload} for {@code steps} steps of {@code batch}
 * examples in {@code seconds} of wall-clock time and {@code cpuSeconds} of the process's CPU time
 * (every thread, MXNet's engine included), in round {@code rep} (every implementation of a workload
 * and batch size runs once per round, back to back).
 */
record Sample(
    Workload workload,
    Impl impl,
    int batch,
    int rep,
    int steps,
    double seconds,
    double cpuSeconds) {
  /** A run whose CPU time was not measured (NaN). */
  Sample(Workload workload, Impl impl, int batch, int rep, int steps, double seconds) {
    this(workload, impl, batch, rep, steps, seconds, Double.NaN);
  }

  /** Steps per second of process CPU time (NaN when not measured). */
  double stepsPerCpuSecond() {
    return steps / cpuSeconds;
  }

  /** Steps per second. */
  double stepsPerSecond() {
    return steps / seconds;
  }

  /** Microseconds per step. */
  double microsPerStep() {
    return seconds * 1e6 / steps;
  }
}
