package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * One MXNet {@code NDArrayHandle} that Kiln owns: made by {@link #create}, {@link #slice}, {@link
 * #reshape}, an executor's outputs ({@link ExecutorHandle#outputs()}) or handed over by MXNet (a
 * key-value store's updater), and freed ({@code MXNDArrayFree}) by {@link #close()}. Every method
 * is one checked MXNet call on the array; none allocates beyond what the C call needs.
 *
 * <p>Only this package sees the native pointer. A handle used after {@link #close()} throws {@link
 * IllegalStateException}.
 */
public final class NDArrayHandle implements AutoCloseable {
  private Pointer pointer;

  NDArrayHandle(Pointer pointer) {
    this.pointer = pointer;
  }

  /**
   * A new float32 array of shape {@code dims} on CPU context {@code cpu(device)}, its memory
   * allocated at once and not initialised ({@code MXNDArrayCreateEx}).
   */
  public static NDArrayHandle create(int[] dims, int device) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api().MXNDArrayCreateEx(dims, dims.length, Mx.CPU, device, 0, Mx.FLOAT32, ref),
        "MXNDArrayCreateEx");
    return new NDArrayHandle(ref.getValue());
  }

  /** The native handle; only this package passes it to MXNet. */
  Pointer pointer() {
    Pointer p = pointer;
    if (p == null) {
      throw new IllegalStateException("NDArray handle is closed");
    }
    return p;
  }

  /** The native handles of {@code handles}, a null entry giving a null pointer (no array). */
  static Pointer[] pointers(NDArrayHandle[] handles) {
    Pointer[] out = new Pointer[handles.length];
    for (int i = 0; i < handles.length; i++) {
      out[i] = handles[i] == null ? null : handles[i].pointer();
    }
    return out;
  }

  /** The array's dimensions ({@code MXNDArrayGetShapeEx}); empty for a scalar. */
  public int[] shape() {
    IntByReference ndim = new IntByReference();
    PointerByReference data = new PointerByReference();
    Mx.check(Mx.api().MXNDArrayGetShapeEx(pointer(), ndim, data), "MXNDArrayGetShapeEx");
    return ndim.getValue() <= 0 ? new int[0] : data.getValue().getIntArray(0, ndim.getValue());
  }

  /**
   * A new handle on rows {@code [begin, end)} of this array, sharing its memory ({@code
   * MXNDArraySlice}); the caller owns it.
   */
  public NDArrayHandle slice(int begin, int end) {
    PointerByReference out = new PointerByReference();
    Mx.check(Mx.api().MXNDArraySlice(pointer(), begin, end, out), "MXNDArraySlice");
    return new NDArrayHandle(out.getValue());
  }

  /**
   * A new handle on this array's memory seen in shape {@code dims} ({@code MXNDArrayReshape}); the
   * caller owns it.
   */
  public NDArrayHandle reshape(int[] dims) {
    PointerByReference out = new PointerByReference();
    Mx.check(Mx.api().MXNDArrayReshape(pointer(), dims.length, dims, out), "MXNDArrayReshape");
    return new NDArrayHandle(out.getValue());
  }

  /** Copies the first {@code size} of {@code values} into the array; waits for pending work. */
  public void copyFrom(float[] values, long size) {
    Mx.check(Mx.api().MXNDArraySyncCopyFromCPU(pointer(), values, size), "copy into array");
  }

  /** Copies the first {@code size} floats of a direct buffer into the array. */
  public void copyFrom(Buffer values, long size) {
    Mx.check(Mx.api().MXNDArraySyncCopyFromCPU(pointer(), values, size), "copy into array");
  }

  /**
   * Copies {@code source}, of the same shape, into this array ({@code
   * MXNDArraySyncCopyFromNDArray}), after the writes queued to either.
   */
  public void copyFrom(NDArrayHandle source) {
    copyFromPointer(source.pointer());
  }

  /** As {@link #copyFrom(NDArrayHandle)}, from a handle another binding (DJL's) owns. */
  void copyFromPointer(Pointer source) {
    Mx.check(Mx.api().MXNDArraySyncCopyFromNDArray(pointer(), source, -1), "copy between arrays");
  }

  /** Copies the array's first {@code size} values into {@code out}; waits for pending writes. */
  public void copyTo(float[] out, long size) {
    Mx.check(Mx.api().MXNDArraySyncCopyToCPU(pointer(), out, size), "copy out of array");
  }

  /** Copies the array's first {@code size} values into a direct buffer. */
  public void copyTo(Buffer out, long size) {
    Mx.check(Mx.api().MXNDArraySyncCopyToCPU(pointer(), out, size), "copy out of array");
  }

  /** Waits until every pending write of the array is done ({@code MXNDArrayWaitToRead}). */
  public void waitToRead() {
    Mx.check(Mx.api().MXNDArrayWaitToRead(pointer()), "MXNDArrayWaitToRead");
  }

  /**
   * Waits until every pending write of the array (on CPU context {@code device}) is done, without
   * waiting for the reads queued after them ({@link PriorityWait}).
   */
  public void waitToReadPrioritized(int device) {
    PriorityWait.waitToRead(this, device);
  }

  /**
   * Writes the first {@code size} of {@code values} into the array's own memory, queueing nothing
   * and waiting for nothing. Only for an array in the default layout whose queued readers are known
   * to have finished (a {@link WriteFence} the caller has waited for) and on which no other thread
   * queues work meanwhile.
   */
  public void writeInPlace(float[] values, int size) {
    if (size > values.length) {
      throw new IllegalArgumentException(size + " values wanted, " + values.length + " given");
    }
    Pointer p = dataPointer();
    if (p == null) {
      throw new IllegalStateException("array has no data");
    }
    p.write(0, values, 0, size);
  }

  /**
   * Turns an array that oneDNN left in a blocked layout back to the default row-major one ({@code
   * MXNDArrayGetData}, whose pointer is dropped); does nothing to any other array.
   */
  public void toDefaultLayout() {
    Mx.check(Mx.api().MXNDArrayGetData(pointer(), new PointerByReference()), "MXNDArrayGetData");
  }

  /**
   * The array's first {@code floats} values where MXNet keeps them ({@code MXNDArrayGetData}, which
   * first turns a oneDNN layout back to row-major), as a native-order buffer over MXNet's memory,
   * no copy; null when the array has no data. Valid while nothing writes or frees the array.
   */
  public FloatBuffer data(long floats) {
    ByteBuffer bytes = bytes(floats);
    return bytes == null ? null : bytes.asFloatBuffer();
  }

  /**
   * As {@link #data}, the bytes of the array's first {@code floats} values, in native order, for
   * readers that take them more than one float at a time; null when the array has no data.
   */
  public ByteBuffer bytes(long floats) {
    Pointer p = dataPointer();
    if (p == null) {
      return null;
    }
    return p.getByteBuffer(0, 4 * floats).order(ByteOrder.nativeOrder());
  }

  /**
   * Where the array's values lie ({@code MXNDArrayGetData}, which also turns a blocked oneDNN
   * layout back to the default one), or null for an array without data.
   */
  private Pointer dataPointer() {
    PointerByReference data = DATA.get();
    Mx.check(Mx.api().MXNDArrayGetData(pointer(), data), "MXNDArrayGetData");
    return data.getValue();
  }

  /**
   * Each thread's place for {@code MXNDArrayGetData}'s answer, reused: a training step asks for
   * three arrays' data, and a new one each time is a native allocation JNA registers and frees.
   */
  private static final ThreadLocal<PointerByReference> DATA =
      ThreadLocal.withInitial(PointerByReference::new);

  /** Frees the handle ({@code MXNDArrayFree}). Idempotent; a failed free may be retried. */
  @Override
  public void close() {
    if (pointer != null) {
      Mx.check(Mx.api().MXNDArrayFree(pointer), "MXNDArrayFree");
      pointer = null;
    }
  }

  @Override
  public String toString() {
    return pointer == null ? "NDArrayHandle(closed)" : "NDArrayHandle";
  }
}
