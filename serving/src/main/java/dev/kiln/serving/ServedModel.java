package dev.kiln.serving;

import dev.kiln.runtime.infer.Predictor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One version of one model as the server serves it: its signature, its replicas behind their
 * batcher, and its statistics. Made, warmed up and only then put where requests find it, so that a
 * version that fails to load is never half-served; {@link #close()} drains it (every request it
 * accepted is answered) and frees its replicas.
 *
 * <p>Threads: {@link #offer} from any thread; the batcher's replicas run on their own threads;
 * {@link #close()} once, from the thread that unloads or shuts down.
 */
final class ServedModel implements AutoCloseable {
  private final String name;
  private final String version;
  private final Signature signature;
  private final Batcher batcher;
  private final ModelStats stats = new ModelStats();

  /**
   * Takes over {@code prototype} (and copies it for every further replica); on failure frees what
   * it made, the prototype included.
   */
  ServedModel(
      String name,
      String version,
      Predictor prototype,
      InferenceServer.Config config,
      ServerMetrics metrics,
      Executor answers) {
    this.name = name;
    this.version = version;
    List<Predictor> replicas = new ArrayList<>();
    replicas.add(prototype);
    try {
      this.signature = Signature.of(prototype);
      for (int r = 1; r < config.replicas(); r++) {
        replicas.add(prototype.copy());
      }
    } catch (RuntimeException e) {
      replicas.forEach(Predictor::close);
      throw e;
    }
    this.batcher =
        new Batcher(
            replicas,
            config.maxBatch(),
            config.maxDelayMs(),
            config.maxQueue(),
            (jobs, examples, start, end, failed) -> {
              metrics.batch(name, version, examples);
              stats.batch(jobs, examples, start, end, failed);
            },
            answers);
  }

  String name() {
    return name;
  }

  /** The version, a whole number from 1, as text (the protocol's). */
  String version() {
    return version;
  }

  Signature signature() {
    return signature;
  }

  ModelStats stats() {
    return stats;
  }

  /** Binds every replica's executors; on failure frees the replicas and rethrows. */
  void warmUp() {
    try {
      batcher.warmUp();
    } catch (RuntimeException e) {
      batcher.close();
      throw e;
    }
  }

  /** Queues a checked request; false when the queue is full or the model is closing. */
  boolean offer(Batcher.Job job) {
    return batcher.offer(job);
  }

  /** Whether it is being unloaded (or the server stops): it takes no more requests. */
  boolean isClosing() {
    return batcher.isStopping();
  }

  /** Requests waiting for a replica. */
  int depth() {
    return batcher.depth();
  }

  /** The batch size a batch of {@code n} examples runs at. */
  int bucket(int n) {
    return batcher.bucket(n);
  }

  /** Drains: answers every request queued, then frees the replicas. */
  @Override
  public void close() {
    batcher.close();
  }
}
