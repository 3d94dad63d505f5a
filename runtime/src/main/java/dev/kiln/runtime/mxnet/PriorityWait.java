package dev.kiln.runtime.mxnet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Waits until an array's pending writes are done, without waiting for the reads queued after them.
 *
 * <p>MXNet's own wait ({@code MXNDArrayWaitToRead}) queues an empty operation that reads the array
 * on the array's device, and MXNet's CPU worker runs a device's operations first in, first out: the
 * wait ends only after every operation that became ready before it has run, including those that
 * merely read the array. Waiting for a gradient after queueing the update that reads it therefore
 * waits for the update too. This wait queues its empty operation with MXNet's {@code
 * kCPUPrioritized} property instead, which runs it on the engine's separate priority worker as soon
 * as the writes are done, while the normal worker goes on with the update.
 *
 * <p>No Java runs on MXNet's threads: the operation is libc's {@code getpid} (any native function
 * that ignores its arguments would do) and its parameter's deleter, which MXNet calls once the
 * operation is done (also when it skipped it because an earlier operation on the array failed), is
 * libc's {@code sem_post} on a semaphore the waiting thread blocks on. (A Java callback would have
 * to attach MXNet's worker threads to the JVM, and threads left attached hang the JVM's exit.) The
 * plain wait that follows then returns at once, or throws MXNet's error.
 */
public final class PriorityWait {
  private static final int CPU_PRIORITIZED = 3;
  private static final int EINTR = 4;
  private static final int SEM_T_BYTES = 32;

  private static final class Holder {
    static final LibC LIBC = LibC.get();
    static final Pointer NOTHING;
    static final Pointer POST;
    static final Memory PROPERTY = new Memory(4);

    static {
      com.sun.jna.NativeLibrary c = com.sun.jna.NativeLibrary.getInstance("c");
      NOTHING = c.getFunction("getpid");
      POST = c.getFunction("sem_post");
      PROPERTY.setInt(0, CPU_PRIORITIZED);
    }
  }

  private static final ThreadLocal<Memory> SEMAPHORE =
      ThreadLocal.withInitial(() -> new Memory(SEM_T_BYTES));
  private static final Map<Integer, Memory> CONTEXTS = new ConcurrentHashMap<>();

  private PriorityWait() {}

  /**
   * Waits until every write queued for {@code array} (on CPU context {@code device}) is done.
   *
   * @throws MxException if one of those writes failed
   */
  public static void waitToRead(NDArrayHandle array, int device) {
    Pointer handle = array.pointer();
    Memory sem = SEMAPHORE.get();
    if (Holder.LIBC.sem_init(sem, 0, 0) != 0) {
      throw new IllegalStateException("sem_init failed: errno " + Native.getLastError());
    }
    Mx.check(
        Mx.api()
            .MXEnginePushSyncND(
                Holder.NOTHING,
                sem,
                Holder.POST,
                context(device),
                new Pointer[] {handle},
                1,
                null,
                0,
                Holder.PROPERTY,
                0,
                "kiln.PriorityWait"),
        "MXEnginePushSyncND");
    while (Holder.LIBC.sem_wait(sem) != 0) {
      int errno = Native.getLastError();
      if (errno != EINTR) {
        throw new IllegalStateException("sem_wait failed: errno " + errno);
      }
    }
    Mx.check(Mx.api().MXNDArrayWaitToRead(handle), "MXNDArrayWaitToRead");
  }

  /** A native function that ignores its arguments, for an operation that only orders others. */
  static Pointer emptyFunction() {
    return Holder.NOTHING;
  }

  /** MXNet's {@code Context} for CPU context {@code device}, kept for reuse. */
  static Pointer context(int device) {
    return CONTEXTS.computeIfAbsent(
        device,
        d -> {
          Memory m = new Memory(8);
          m.setInt(0, Mx.CPU);
          m.setInt(4, d);
          return m;
        });
  }
}
