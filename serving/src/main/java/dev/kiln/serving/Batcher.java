package dev.kiln.serving;

import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Prediction;
import dev.kiln.runtime.infer.Predictor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Dynamic batching over replicas: requests wait in one bounded queue; each replica has a thread
 * that takes the oldest request and gathers more until the batch holds {@code maxBatch} examples or
 * the oldest has waited {@code maxDelay}, runs them as one batch (padded with zeros to a power of
 * two, so that a replica binds at most log2(maxBatch) + 1 executors; a batch that padding would
 * grow by more than a quarter is cut to a power of two instead) and hands each request its rows of
 * the outputs on another thread.
 *
 * <p>A model with free dimensions takes requests of several example shapes: only requests of one
 * shape are batched together. A worker gathering a batch sets aside requests of other shapes, which
 * lead its next batches in their order of arrival; executors bind per shape at the first request of
 * that shape (the predictor keeps the most recently used ones).
 *
 * <p>A full queue refuses ({@link #offer} returns false): the server answers 503 rather than queue
 * without bound. {@link #close()} lets the workers finish every queued request, then frees the
 * replicas.
 */
final class Batcher implements AutoCloseable {
  /** What hears of every batch a replica ran (on the replica's thread). */
  interface Ran {
    /**
     * A batch ran.
     *
     * @param jobs the requests it held
     * @param examples their examples (before padding)
     * @param startNanos when the model started the batch ({@link System#nanoTime()})
     * @param endNanos when it finished
     * @param failed whether the model failed
     */
    void batch(List<Job> jobs, int examples, long startNanos, long endNanos, boolean failed);
  }

  /**
   * One request waiting for a replica; {@code done} gets its outputs (its rows of the batch, with
   * their shapes) or the failure.
   */
  record Job(
      InferRequest request, long arrivalNanos, BiConsumer<Prediction, RuntimeException> done) {}

  private final BlockingQueue<Job> queue;
  private final List<Predictor> replicas;
  private final List<Thread> workers = new ArrayList<>();
  private final int maxBatch;
  private final long maxDelayNanos;
  private final boolean concatenates;
  private final boolean free;
  private final int[] inAxes;
  private final int[] outAxes;
  private final Ran ran;
  private final Executor answers;
  private volatile boolean stopping;

  /**
   * Starts one worker thread per replica; takes ownership of the replicas.
   *
   * @param maxQueue the most requests that may wait
   * @param answers where each batch's requests get their outputs (the HTTP server's threads)
   */
  Batcher(
      List<Predictor> replicas,
      int maxBatch,
      int maxDelayMs,
      int maxQueue,
      Ran ran,
      Executor answers) {
    this.replicas = List.copyOf(replicas);
    this.queue = new ArrayBlockingQueue<>(maxQueue);
    this.maxBatch = maxBatch;
    this.maxDelayNanos = TimeUnit.MILLISECONDS.toNanos(maxDelayMs);
    this.ran = ran;
    this.answers = answers;
    Predictor p = replicas.get(0);
    // Requests are stacked along the first dimension; a model whose batch is elsewhere runs each
    // request alone.
    this.concatenates =
        p.inputs().stream().allMatch(x -> x.batchAxis() == 0)
            && p.outputs().stream().allMatch(x -> x.batchAxis() == 0);
    this.free = p.hasFreeDimensions();
    this.inAxes = p.inputs().stream().mapToInt(Port::batchAxis).toArray();
    this.outAxes = p.outputs().stream().mapToInt(Port::batchAxis).toArray();
    for (int r = 0; r < replicas.size(); r++) {
      Predictor replica = replicas.get(r);
      Thread t = new Thread(() -> work(replica), "kiln-serve-replica-" + r);
      t.setDaemon(true);
      workers.add(t);
      t.start();
    }
  }

  /**
   * Queues {@code job}; false when the queue is full or the batcher is stopping. Atomic with {@link
   * #close()}'s start: a job queued here is one the workers will run before they stop.
   */
  synchronized boolean offer(Job job) {
    return !stopping && queue.offer(job);
  }

  /** Whether {@link #close()} has begun: no job is taken from then on. */
  boolean isStopping() {
    return stopping;
  }

  /** Requests waiting now. */
  int depth() {
    return queue.size();
  }

  /** The batch size a batch of {@code n} examples runs at. */
  int bucket(int n) {
    int b = 1;
    while (b < n) {
      b <<= 1;
    }
    return n <= maxBatch ? Math.min(b, maxBatch) : b;
  }

  /**
   * Binds each replica's executors for every batch size it will run, before the first request; a
   * model with free dimensions binds per shape as requests come (which shapes they bring is not
   * known).
   */
  void warmUp() {
    if (free) {
      return;
    }
    for (Predictor p : replicas) {
      for (int b = 1; ; b <<= 1) {
        int size = Math.min(b, maxBatch);
        float[][] zeros = new float[inAxes.length][];
        for (int i = 0; i < zeros.length; i++) {
          zeros[i] = new float[size * p.inputs().get(i).exampleSize()];
        }
        p.predict(size, zeros);
        if (size == maxBatch || !concatenates) {
          break;
        }
      }
    }
  }

  private void work(Predictor replica) {
    // Requests taken from the queue but not run yet (they stay first in line): one that would have
    // overflowed the last batch, or the tail left over when a batch was cut to a power of two.
    ArrayDeque<Job> pending = new ArrayDeque<>();
    while (true) {
      Job first;
      try {
        first = !pending.isEmpty() ? pending.poll() : queue.poll(20, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (first == null) {
        if (stopping && queue.isEmpty()) {
          return;
        }
        continue;
      }
      List<Job> jobs = new ArrayList<>();
      jobs.add(first);
      int n = first.request().batch();
      if (concatenates) {
        // Requests of another example shape, set aside in order for the batches after this one.
        List<Job> aside = new ArrayList<>();
        long deadline = first.arrivalNanos() + maxDelayNanos;
        while (n < maxBatch) {
          long wait = deadline - System.nanoTime();
          Job next;
          if (!pending.isEmpty()) {
            next = pending.poll();
          } else {
            try {
              next = wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : queue.poll();
            } catch (InterruptedException e) {
              next = null;
            }
          }
          if (next == null) {
            break;
          }
          if (free && !sameExamples(first.request(), next.request())) {
            aside.add(next);
            continue;
          }
          if (n + next.request().batch() > maxBatch) {
            pending.addFirst(next);
            break;
          }
          jobs.add(next);
          n += next.request().batch();
        }
        n = cut(jobs, n, pending);
        for (int k = aside.size() - 1; k >= 0; k--) {
          pending.addFirst(aside.get(k));
        }
      }
      run(replica, jobs, n);
    }
  }

  /**
   * Cuts a batch of {@code n} examples whose padding would be more than a quarter of the batch it
   * runs at (9 examples run as 16) back to its oldest requests that fill the power of two below
   * (8), so that the replica does not compute the padding: the rest go back to the front of {@code
   * pending} and lead the next batch, which starts at once (their delay is over) with whatever
   * arrived meanwhile. A batch that no run of its oldest requests fills (requests of several
   * examples) stays whole and is padded.
   *
   * @return the examples left in {@code jobs}
   */
  private int cut(List<Job> jobs, int n, ArrayDeque<Job> pending) {
    int padded = bucket(n);
    if (padded - n <= padded / 4) {
      return n;
    }
    int target = Integer.highestOneBit(n);
    int sum = 0;
    int k = 0;
    while (k < jobs.size() && sum + jobs.get(k).request().batch() <= target) {
      sum += jobs.get(k).request().batch();
      k++;
    }
    if (sum != target) {
      return n;
    }
    for (int j = jobs.size() - 1; j >= k; j--) {
      pending.addFirst(jobs.remove(j));
    }
    return sum;
  }

  /** Whether two requests' examples have one shape (every input's, but for the batch size). */
  private boolean sameExamples(InferRequest a, InferRequest b) {
    for (int i = 0; i < inAxes.length; i++) {
      int[] x = a.shapes().get(i).dims();
      int[] y = b.shapes().get(i).dims();
      x[inAxes[i]] = 1;
      y[inAxes[i]] = 1;
      if (!Arrays.equals(x, y)) {
        return false;
      }
    }
    return true;
  }

  /** {@code shape} with its dimension {@code axis} set to {@code size}. */
  private static Shape resized(Shape shape, int axis, int size) {
    int[] d = shape.dims();
    d[axis] = size;
    return Shape.of(d);
  }

  private void run(Predictor replica, List<Job> jobs, int n) {
    long t0 = System.nanoTime();
    Prediction out;
    int padded = concatenates ? bucket(n) : n;
    boolean whole = jobs.size() == 1 && padded == n;
    InferRequest lead = jobs.get(0).request();
    try {
      float[][] in = new float[inAxes.length][];
      List<Shape> shapes = new ArrayList<>();
      for (int i = 0; i < in.length; i++) {
        shapes.add(resized(lead.shapes().get(i), inAxes[i], padded));
      }
      if (whole) {
        in = lead.inputs();
      } else {
        for (int i = 0; i < in.length; i++) {
          in[i] = new float[padded * (lead.inputs()[i].length / lead.batch())];
          int at = 0;
          for (Job j : jobs) {
            float[] v = j.request().inputs()[i];
            System.arraycopy(v, 0, in[i], at, v.length);
            at += v.length;
          }
        }
      }
      out = replica.predict(shapes, in);
    } catch (RuntimeException e) {
      ran.batch(jobs, n, t0, System.nanoTime(), true);
      answer(() -> jobs.forEach(j -> j.done().accept(null, e)));
      return;
    }
    ran.batch(jobs, n, t0, System.nanoTime(), false);
    float[][] result = out.values();
    List<Shape> shapes = out.shapes();
    // The replica goes on to its next batch; writing the answers (JSON, the socket) is another
    // thread's work.
    answer(
        () -> {
          int row = 0;
          for (Job j : jobs) {
            int b = j.request().batch();
            float[][] mine = new float[result.length][];
            List<Shape> mineShapes = new ArrayList<>();
            for (int o = 0; o < result.length; o++) {
              if (whole) {
                mine[o] = result[o];
                mineShapes.add(shapes.get(o));
              } else {
                int size = result[o].length / padded;
                mine[o] = Arrays.copyOfRange(result[o], row * size, (row + b) * size);
                mineShapes.add(resized(shapes.get(o), outAxes[o], b));
              }
            }
            row += b;
            j.done().accept(new Prediction(mineShapes, mine), null);
          }
        });
  }

  private void answer(Runnable task) {
    try {
      answers.execute(task);
    } catch (RejectedExecutionException e) {
      // The pool has stopped (a drain that ran out of time): answer here rather than drop.
      task.run();
    }
  }

  /** Stops taking requests, lets the workers answer every queued one, then frees the replicas. */
  @Override
  public void close() {
    synchronized (this) {
      stopping = true;
    }
    for (Thread t : workers) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    // Anything that slipped in after the workers saw an empty queue is refused, never dropped.
    for (Job j; (j = queue.poll()) != null; ) {
      j.done().accept(null, new IllegalStateException("the server is shutting down"));
    }
    for (Predictor p : replicas) {
      p.close();
    }
  }
}
