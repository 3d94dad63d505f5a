package dev.kiln.runtime.dist;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.mxnet.Mx;
import java.util.List;

/**
 * One MXNet key-value store, the engine of data parallelism: {@code local} sums the values several
 * CPU contexts of this process push under one key; {@code dist_sync} sums them across the worker
 * processes of a job through ps-lite's servers. With no updater on the store, a pull after a round
 * of pushes returns the round's sum: an all-reduce. A job's servers can instead run the optimizer
 * ({@link ServerUpdates}), and a pull then returns the updated parameters.
 *
 * <p>Keys are integers, and every worker of a job must initialise the same keys in the same order
 * (ps-lite numbers them by it); only rank 0's initial value is kept. The store owns its handle and
 * frees it in {@link #close()}: a worker that exits without freeing it makes ps-lite abort and the
 * servers wait for ever.
 */
public final class KvStore implements AutoCloseable {
  private final String type;
  private Pointer handle;

  private KvStore(String type, Pointer handle) {
    this.type = type;
    this.handle = handle;
  }

  /**
   * A new store of {@code type}: {@code local}, {@code device} or {@code dist_sync} (the last
   * connects to the job's scheduler, as the {@code DMLC_*} environment says, and for rank 0 sets
   * the servers to synchronous mode).
   */
  public static KvStore create(String type) {
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXKVStoreCreate(type, ref), "MXKVStoreCreate(" + type + ")");
    return new KvStore(type, ref.getValue());
  }

  /** The store's type. */
  public String type() {
    return type;
  }

  /** Stores {@code value} under {@code key} (across a job: rank 0's, after a barrier). */
  public void init(int key, Tensor value) {
    Mx.check(
        Mx.api().MXKVStoreInit(handle(), 1, new int[] {key}, new Pointer[] {value.handle()}),
        "MXKVStoreInit(" + key + ")");
  }

  /** Copies the value stored under {@code key} into every array of {@code into}. */
  public void pull(int key, List<Tensor> into) {
    Mx.check(
        Mx.api().MXKVStorePull(handle(), into.size(), repeat(key, into.size()), handles(into), 0),
        "MXKVStorePull(" + key + ")");
  }

  /**
   * Pushes every array of {@code values} under {@code key} and pulls the sum of this round's pushes
   * (from every context, and across a job every worker) back into each of them.
   */
  public void pushPull(int key, List<Tensor> values) {
    int[] keys = repeat(key, values.size());
    Pointer[] arrays = handles(values);
    Mx.check(
        Mx.api()
            .MXKVStorePushPull(handle(), keys.length, keys, keys.length, keys, arrays, arrays, 0),
        "MXKVStorePushPull(" + key + ")");
  }

  /**
   * Pushes every array of {@code values} under {@code key} and pulls what the store then holds into
   * every array of {@code into}: with an updater on the servers, the updated parameters.
   */
  public void pushPull(int key, List<Tensor> values, List<Tensor> into) {
    int[] in = repeat(key, values.size());
    int[] out = repeat(key, into.size());
    Mx.check(
        Mx.api()
            .MXKVStorePushPull(
                handle(), in.length, in, out.length, out, handles(values), handles(into), 0),
        "MXKVStorePushPull(" + key + ")");
  }

  /**
   * Sends {@code body} to every server's controller under command {@code head} and waits until
   * every server has handled it (a worker's call; see {@link Node}).
   */
  public void sendCommandToServers(int head, String body) {
    Mx.check(
        Mx.api().MXKVStoreSendCommmandToServers(handle(), head, body),
        "MXKVStoreSendCommmandToServers(" + head + ")");
  }

  /** This worker's rank in the job, in {@code [0, workers())}; 0 for a local store. */
  public int rank() {
    IntByReference r = new IntByReference();
    Mx.check(Mx.api().MXKVStoreGetRank(handle(), r), "MXKVStoreGetRank");
    return r.getValue();
  }

  /** The number of workers in the job; 1 for a local store. */
  public int workers() {
    IntByReference r = new IntByReference();
    Mx.check(Mx.api().MXKVStoreGetGroupSize(handle(), r), "MXKVStoreGetGroupSize");
    return r.getValue();
  }

  /** Waits until every worker of the job reaches this barrier. */
  public void barrier() {
    Mx.check(Mx.api().MXKVStoreBarrier(handle()), "MXKVStoreBarrier");
  }

  /** The handle, for the server loop and the heartbeat watch of {@link Node}. */
  Pointer handleForServing() {
    return handle();
  }

  private Pointer handle() {
    if (handle == null) {
      throw new IllegalStateException(type + " key-value store is closed");
    }
    return handle;
  }

  /**
   * Frees the store; for a {@code dist_sync} worker this waits for the others at a final barrier,
   * and rank 0 then stops the servers. Idempotent.
   */
  @Override
  public void close() {
    if (handle != null) {
      Pointer h = handle;
      handle = null;
      Mx.check(Mx.api().MXKVStoreFree(h), "MXKVStoreFree");
    }
  }

  private static int[] repeat(int key, int n) {
    int[] keys = new int[n];
    java.util.Arrays.fill(keys, key);
    return keys;
  }

  private static Pointer[] handles(List<Tensor> tensors) {
    Pointer[] out = new Pointer[tensors.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = tensors.get(i).handle();
    }
    return out;
  }
}
