package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * One MXNet {@code KVStoreHandle} ({@code MXKVStoreCreate}), freed ({@code MXKVStoreFree}) by
 * {@link #close()}: initialising, pushing and pulling keys, barriers, and the server side of a
 * {@code dist_sync} job (the server loop, a worker's commands, the updater). Arrays are passed as a
 * list of the caller's own objects and a function giving each one's handle, so that no array of
 * handle objects is made per call.
 */
public final class KvStoreHandle implements AutoCloseable {
  /** Merges a round of pushes into a stored value, on a server's thread. */
  @FunctionalInterface
  public interface Updater {
    /**
     * Called with the key, the pushed value and the stored value; the updater owns both handles and
     * must close them. An exception must not escape: MXNet's C++ loop cannot take one.
     */
    void update(int key, NDArrayHandle pushed, NDArrayHandle stored);
  }

  /** A command a worker sent to the servers ({@link #sendCommandToServers}). */
  @FunctionalInterface
  public interface Controller {
    /**
     * Called on a server's thread with the command's head and body. An exception must not escape:
     * MXNet's C++ loop cannot take one.
     */
    void command(int head, String body);
  }

  private final String type;
  private Pointer pointer;
  // Kept reachable: MXNet calls them from its own threads for as long as the store serves.
  private MxApi.KvUpdater updater;
  private MxApi.KvController controller;

  private KvStoreHandle(String type, Pointer pointer) {
    this.type = type;
    this.pointer = pointer;
  }

  /**
   * A new store of {@code type}: {@code local}, {@code device} or {@code dist_sync} (the last
   * connects to the job's scheduler, as the {@code DMLC_*} environment says).
   */
  public static KvStoreHandle create(String type) {
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXKVStoreCreate(type, ref), "MXKVStoreCreate(" + type + ")");
    return new KvStoreHandle(type, ref.getValue());
  }

  private Pointer pointer() {
    Pointer p = pointer;
    if (p == null) {
      throw new IllegalStateException(type + " key-value store is closed");
    }
    return p;
  }

  /** Stores {@code value} under {@code key} ({@code MXKVStoreInit}). */
  public void init(int key, NDArrayHandle value) {
    Mx.check(
        Mx.api().MXKVStoreInit(pointer(), 1, new int[] {key}, new Pointer[] {value.pointer()}),
        "MXKVStoreInit(" + key + ")");
  }

  /**
   * Copies the value under {@code key} into every array of {@code into} ({@code MXKVStorePull}).
   */
  public <T> void pull(int key, List<T> into, Function<? super T, NDArrayHandle> handle) {
    Mx.check(
        Mx.api()
            .MXKVStorePull(
                pointer(), into.size(), repeat(key, into.size()), pointers(into, handle), 0),
        "MXKVStorePull(" + key + ")");
  }

  /** Pushes every array of {@code values} under {@code key} ({@code MXKVStorePush}). */
  public <T> void push(int key, List<T> values, Function<? super T, NDArrayHandle> handle) {
    Mx.check(
        Mx.api()
            .MXKVStorePush(
                pointer(), values.size(), repeat(key, values.size()), pointers(values, handle), 0),
        "MXKVStorePush(" + key + ")");
  }

  /**
   * Compresses every push from now on with MXNet's {@code 2bit} scheme at {@code threshold} ({@code
   * MXKVStoreSetGradientCompression}; in a job, rank 0 passes it on to the servers). Call it before
   * any key is initialised.
   */
  public void twoBitCompression(float threshold) {
    Mx.check(
        Mx.api()
            .MXKVStoreSetGradientCompression(
                pointer(),
                2,
                new String[] {"type", "threshold"},
                new String[] {"2bit", Float.toString(threshold)}),
        "MXKVStoreSetGradientCompression(2bit, " + threshold + ")");
  }

  /**
   * Pushes every array of {@code values} under {@code key} and pulls the store's value back into
   * each of them ({@code MXKVStorePushPull}).
   */
  public <T> void pushPull(int key, List<T> values, Function<? super T, NDArrayHandle> handle) {
    int[] keys = repeat(key, values.size());
    Pointer[] arrays = pointers(values, handle);
    Mx.check(
        Mx.api()
            .MXKVStorePushPull(pointer(), keys.length, keys, keys.length, keys, arrays, arrays, 0),
        "MXKVStorePushPull(" + key + ")");
  }

  /**
   * Pushes every array of {@code values} under {@code key} and pulls the store's value into every
   * array of {@code into} ({@code MXKVStorePushPull}).
   */
  public <T> void pushPull(
      int key, List<T> values, List<T> into, Function<? super T, NDArrayHandle> handle) {
    int[] in = repeat(key, values.size());
    int[] out = repeat(key, into.size());
    Mx.check(
        Mx.api()
            .MXKVStorePushPull(
                pointer(),
                in.length,
                in,
                out.length,
                out,
                pointers(values, handle),
                pointers(into, handle),
                0),
        "MXKVStorePushPull(" + key + ")");
  }

  /**
   * Sends {@code body} to every server's controller under command {@code head} and waits until
   * every server has handled it ({@code MXKVStoreSendCommmandToServers}).
   */
  public void sendCommandToServers(int head, String body) {
    Mx.check(
        Mx.api().MXKVStoreSendCommmandToServers(pointer(), head, body),
        "MXKVStoreSendCommmandToServers(" + head + ")");
  }

  /** This worker's rank in the job ({@code MXKVStoreGetRank}). */
  public int rank() {
    IntByReference r = new IntByReference();
    Mx.check(Mx.api().MXKVStoreGetRank(pointer(), r), "MXKVStoreGetRank");
    return r.getValue();
  }

  /** The number of workers in the job ({@code MXKVStoreGetGroupSize}). */
  public int groupSize() {
    IntByReference r = new IntByReference();
    Mx.check(Mx.api().MXKVStoreGetGroupSize(pointer(), r), "MXKVStoreGetGroupSize");
    return r.getValue();
  }

  /** Waits until every worker of the job reaches this barrier ({@code MXKVStoreBarrier}). */
  public void barrier() {
    Mx.check(Mx.api().MXKVStoreBarrier(pointer()), "MXKVStoreBarrier");
  }

  /**
   * Runs a scheduler's or server's loop until the job ends ({@code MXKVStoreRunServer}), handing
   * the workers' commands to {@code commands} on the server's thread.
   *
   * @throws MxException with MXNet's text when the loop fails
   */
  public void runServer(Controller commands) {
    MxApi.KvController c = (head, body, ignored) -> commands.command(head, body);
    controller = c;
    try {
      Mx.check(Mx.api().MXKVStoreRunServer(pointer(), c, Pointer.NULL), "MXKVStoreRunServer");
    } finally {
      Reference.reachabilityFence(c);
    }
  }

  /**
   * Installs {@code update} as the store's updater ({@code MXKVStoreSetUpdater}; on a server, from
   * its controller): MXNet calls it with each round of pushes of a key.
   */
  public void setUpdater(Updater update) {
    MxApi.KvUpdater u =
        (key, recv, local, ignored) ->
            update.update(key, new NDArrayHandle(recv), new NDArrayHandle(local));
    Mx.check(Mx.api().MXKVStoreSetUpdater(pointer(), u, Pointer.NULL), "MXKVStoreSetUpdater");
    updater = u;
  }

  /**
   * The number of nodes of kind {@code nodeId} (ps-lite's: 1 scheduler, 2 servers, 4 workers, or a
   * sum of them) that sent no heartbeat for {@code timeoutSeconds} ({@code
   * MXKVStoreGetNumDeadNode}).
   *
   * @throws MxException with MXNet's text when ps-lite cannot tell
   */
  public int deadNodes(int nodeId, int timeoutSeconds) {
    IntByReference n = new IntByReference();
    Mx.check(
        Mx.api().MXKVStoreGetNumDeadNode(pointer(), nodeId, n, timeoutSeconds),
        "MXKVStoreGetNumDeadNode");
    return n.getValue();
  }

  /**
   * Frees the store ({@code MXKVStoreFree}); for a {@code dist_sync} worker this waits for the
   * others at a final barrier. Idempotent: the handle is dropped before the call, which is made
   * once.
   */
  @Override
  public void close() {
    if (pointer != null) {
      Pointer p = pointer;
      pointer = null;
      Mx.check(Mx.api().MXKVStoreFree(p), "MXKVStoreFree");
    }
  }

  private static int[] repeat(int key, int n) {
    int[] keys = new int[n];
    Arrays.fill(keys, key);
    return keys;
  }

  private static <T> Pointer[] pointers(List<T> arrays, Function<? super T, NDArrayHandle> handle) {
    Pointer[] out = new Pointer[arrays.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = handle.apply(arrays.get(i)).pointer();
    }
    return out;
  }
}
