package dev.kiln.serving;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The statistics extension's counts for one model version, in Triton's shape: requests answered
 * (success) and failed, each with their total time from arrival to answer; time queued and time the
 * model computed, per request; inferences (examples) and executions (batches) run; and per batch
 * size the batches and their compute time. Written by the protocols' threads and the replicas',
 * read by {@code GET .../stats}: every method is synchronized (cheap against a model run).
 */
final class ModelStats {
  /** A count and its total nanoseconds. */
  record Duration(long count, long ns) {}

  /** A snapshot of the counts. */
  record Snapshot(
      long lastInferenceMs,
      long inferenceCount,
      long executionCount,
      Duration success,
      Duration fail,
      Duration queue,
      Duration computeInfer,
      Map<Integer, Duration> batches) {}

  private long lastInferenceMs;
  private long inferenceCount;
  private long executionCount;
  private long successCount;
  private long successNs;
  private long failCount;
  private long failNs;
  private long queueCount;
  private long queueNs;
  private long computeCount;
  private long computeNs;
  private final Map<Integer, long[]> batches = new TreeMap<>();

  /** A batch of {@code jobs} ran from {@code start} to {@code end}. */
  synchronized void batch(
      List<Batcher.Job> jobs, int examples, long start, long end, boolean failed) {
    executionCount++;
    if (!failed) {
      inferenceCount += examples;
    }
    lastInferenceMs = System.currentTimeMillis();
    for (Batcher.Job j : jobs) {
      queueCount++;
      queueNs += Math.max(0, start - j.arrivalNanos());
      computeCount++;
      computeNs += end - start;
    }
    long[] b = batches.computeIfAbsent(examples, k -> new long[2]);
    b[0]++;
    b[1] += end - start;
  }

  /** A request was answered ({@code ok}) or failed, {@code startNanos} being its arrival. */
  synchronized void answered(boolean ok, long startNanos) {
    long ns = System.nanoTime() - startNanos;
    if (ok) {
      successCount++;
      successNs += ns;
    } else {
      failCount++;
      failNs += ns;
    }
  }

  synchronized Snapshot snapshot() {
    Map<Integer, Duration> b = new TreeMap<>();
    batches.forEach((k, v) -> b.put(k, new Duration(v[0], v[1])));
    return new Snapshot(
        lastInferenceMs,
        inferenceCount,
        executionCount,
        new Duration(successCount, successNs),
        new Duration(failCount, failNs),
        new Duration(queueCount, queueNs),
        new Duration(computeCount, computeNs),
        b);
  }
}
