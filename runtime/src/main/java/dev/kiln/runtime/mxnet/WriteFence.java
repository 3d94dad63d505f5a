package dev.kiln.runtime.mxnet;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * An empty operation queued as a writer of some arrays, behind the operations already queued on
 * them, so that a later {@code MXNDArrayWaitToRead} of an array tells whether they have all run.
 *
 * <p>To write an array from Java, every operation that reads it must have finished. MXNet's own
 * copy from host memory ({@code MXNDArraySyncCopyFromCPU}) finds out by queueing an empty writer
 * then a wait on the device's worker, behind everything else that worker has been given, and blocks
 * the calling thread until both have run: two trips through MXNet's threads on every copy, which on
 * the 2-core machine cost the MLP's training step more than its own forward pass (issue 25, {@code
 * docs/benchmarks.md}). A fence queued right after a step's backward pass runs as soon as that pass
 * is done, long before Java copies the batch after next into the same arrays; a plain wait to read
 * then returns at once, queueing nothing ({@code ThreadedVar::ready_to_read}), and Java writes the
 * array's memory directly. When the fence has not run yet, the plain wait is MXNet's ordinary wait
 * and still correct.
 *
 * <p>The caller keeps the contract that makes the fence mean something: no operation that reads the
 * arrays may be queued between the fence and the write (a later writer is fine: the wait waits for
 * it).
 */
public final class WriteFence {
  /**
   * The system property that turns fences off where executors are bound while it reads {@code
   * false}: every copy is then MXNet's synchronous one, for comparisons.
   */
  public static final String SWITCH = "kiln.inputFence";

  /** The operation's name in MXNet's profiler, as a C string made once. */
  private static final Memory NAME = cString("kiln.WriteFence");

  private WriteFence() {}

  /** Whether an executor bound now should queue fences ({@link #SWITCH} is not {@code false}). */
  public static boolean enabled() {
    return !"false".equals(System.getProperty(SWITCH));
  }

  /**
   * Queues the fence on {@code arrays}, all on CPU context {@code device}, with MXNet's normal
   * property: it runs on the device's worker, costing it a few microseconds and no thread switch.
   */
  public static void queue(HandleArray arrays, int device) {
    if (arrays.size() == 0) {
      return;
    }
    Mx.check(
        Mx.api()
            .MXEnginePushSyncND(
                PriorityWait.emptyFunction(),
                null,
                null,
                PriorityWait.context(device),
                null,
                0,
                arrays.block(),
                arrays.size(),
                null,
                0,
                NAME),
        "MXEnginePushSyncND");
  }

  private static Memory cString(String s) {
    byte[] bytes = Native.toByteArray(s);
    Memory m = new Memory(bytes.length);
    m.write(0, bytes, 0, bytes.length);
    return m;
  }
}
