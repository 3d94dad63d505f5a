package dev.kiln.runtime.dist;

import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.mxnet.KvStoreHandle;
import java.util.List;

/**
 * One MXNet key-value store, the engine of data parallelism: {@code local} sums the values several
 * CPU contexts of this process push under one key; {@code dist_sync} sums them across the worker
 * processes of a job through ps-lite's servers. With no updater on the store, a pull after a round
 * of pushes returns the round's sum: an all-reduce. A job's servers can instead run the optimizer
 * ({@link ServerUpdates}), and a pull then returns the updated parameters.
 *
 * <p>Keys are integers, and every worker of a job must initialise the same keys in the same order
 * (ps-lite numbers them by it); only rank 0's initial value is kept. The store owns its handle
 * ({@link KvStoreHandle}) and frees it in {@link #close()}: a worker that exits without freeing it
 * makes ps-lite abort and the servers wait for ever.
 */
public final class KvStore implements AutoCloseable {
  private final String type;
  private final KvStoreHandle handle;

  /** Guards {@link #closed}: a heartbeat query never runs on a freed store. */
  private final Object lifecycle = new Object();

  private boolean closed;
  private boolean compressed;

  private KvStore(String type, KvStoreHandle handle) {
    this.type = type;
    this.handle = handle;
  }

  /**
   * A new store of {@code type}: {@code local}, {@code device} or {@code dist_sync} (the last
   * connects to the job's scheduler, as the {@code DMLC_*} environment says, and for rank 0 sets
   * the servers to synchronous mode).
   */
  public static KvStore create(String type) {
    return new KvStore(type, KvStoreHandle.create(type));
  }

  /** The store's type. */
  public String type() {
    return type;
  }

  /** Stores {@code value} under {@code key} (across a job: rank 0's, after a barrier). */
  public void init(int key, Tensor value) {
    handle.init(key, value.handle());
  }

  /** Pushes every array of {@code values} under {@code key}. */
  public void push(int key, List<Tensor> values) {
    handle.push(key, values, Tensor::handle);
  }

  /**
   * Compresses every push from now on with MXNet's {@code 2bit} scheme: each value goes as {@code
   * +threshold}, {@code -threshold} or 0 (2 bits), what was left out carried into the next push.
   * Before any {@link #init}; MXNet then refuses {@link #pushPull} ({@link #push}, then {@link
   * #pull}).
   *
   * @throws IllegalArgumentException if {@code threshold} is not positive and finite
   */
  public void twoBitCompression(float threshold) {
    if (!(threshold > 0) || !Float.isFinite(threshold)) {
      throw new IllegalArgumentException(
          "2bit compression threshold must be positive and finite, got " + threshold);
    }
    handle.twoBitCompression(threshold);
    compressed = true;
  }

  /** Whether pushes are compressed ({@link #twoBitCompression}). */
  public boolean compressed() {
    return compressed;
  }

  /** Copies the value stored under {@code key} into every array of {@code into}. */
  public void pull(int key, List<Tensor> into) {
    handle.pull(key, into, Tensor::handle);
  }

  /**
   * Pushes every array of {@code values} under {@code key} and pulls the sum of this round's pushes
   * (from every context, and across a job every worker) back into each of them.
   */
  public void pushPull(int key, List<Tensor> values) {
    handle.pushPull(key, values, Tensor::handle);
  }

  /**
   * Pushes every array of {@code values} under {@code key} and pulls what the store then holds into
   * every array of {@code into}: with an updater on the servers, the updated parameters.
   */
  public void pushPull(int key, List<Tensor> values, List<Tensor> into) {
    handle.pushPull(key, values, into, Tensor::handle);
  }

  /**
   * Sends {@code body} to every server's controller under command {@code head} and waits until
   * every server has handled it (a worker's call; see {@link Node}).
   */
  public void sendCommandToServers(int head, String body) {
    handle.sendCommandToServers(head, body);
  }

  /** This worker's rank in the job, in {@code [0, workers())}; 0 for a local store. */
  public int rank() {
    return handle.rank();
  }

  /** The number of workers in the job; 1 for a local store. */
  public int workers() {
    return handle.groupSize();
  }

  /** Waits until every worker of the job reaches this barrier. */
  public void barrier() {
    handle.barrier();
  }

  /**
   * ps-lite's count of nodes of {@code nodeId} (a node or a group: 1 the scheduler, 2 the servers,
   * 4 the workers, 8 + 2r server rank r, 9 + 2r worker rank r) from which this process has heard no
   * heartbeat for {@code timeoutSeconds}; the scheduler hears every node, the others only the
   * scheduler. -1 once the store is closing.
   */
  int deadNodes(int nodeId, int timeoutSeconds) {
    synchronized (lifecycle) {
      return closed ? -1 : handle.deadNodes(nodeId, timeoutSeconds);
    }
  }

  /** {@link #rank()}, or -2 once the store is closing (for a thread other than its owner's). */
  int rankWhileOpen() {
    synchronized (lifecycle) {
      return closed ? -2 : handle.rank();
    }
  }

  /** The handle, for the server loop, the updater and the heartbeat watch of {@link Node}. */
  KvStoreHandle handleForServing() {
    return handle;
  }

  /**
   * Frees the store; for a {@code dist_sync} worker this waits for the others at a final barrier,
   * and rank 0 then stops the servers. Idempotent.
   */
  @Override
  public void close() {
    synchronized (lifecycle) {
      closed = true;
    }
    handle.close();
  }
}
