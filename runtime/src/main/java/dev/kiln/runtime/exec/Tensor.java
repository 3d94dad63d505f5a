package dev.kiln.runtime.exec;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.Mx;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * A float32 MXNet NDArray on the CPU that Kiln owns: a parameter, a gradient, or an executor's
 * input, output or head-gradient array. Its handle is freed by {@link #close()}; which object
 * closes it is stated where it is made.
 */
public final class Tensor implements AutoCloseable {
  private final Shape shape;
  private final long size;
  private final int device;
  private Pointer handle;
  private final boolean owned;

  private Tensor(Pointer handle, Shape shape, int device, boolean owned) {
    this.handle = handle;
    this.shape = shape;
    this.size = shape.size();
    this.device = device;
    this.owned = owned;
  }

  /** A new zero-filled array of the given complete shape on {@code cpu(0)}; the caller owns it. */
  public static Tensor zeros(Shape shape) {
    return zeros(shape, 0);
  }

  /**
   * A new zero-filled array of the given complete shape on CPU context {@code cpu(device)} (each
   * context has its own MXNet engine workers); the caller owns it.
   */
  public static Tensor zeros(Shape shape, int device) {
    if (!shape.isComplete()) {
      throw new IllegalArgumentException("cannot allocate an array of shape " + shape);
    }
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api().MXNDArrayCreateEx(shape.dims(), shape.rank(), Mx.CPU, device, 0, Mx.FLOAT32, ref),
        "MXNDArrayCreateEx");
    Tensor t = new Tensor(ref.getValue(), shape, device, true);
    t.fill(0f);
    return t;
  }

  /** The CPU context ({@code cpu(device)}) the array lives on. */
  public int device() {
    return device;
  }

  /**
   * A view of elements {@code [from, from + shape.size())} of this one-dimensional array, in {@code
   * shape}: it shares this array's memory (writes through either are seen by both). The caller owns
   * the view's handle; the memory lives as long as either is open.
   */
  public Tensor view(long from, Shape shape) {
    if (this.shape.rank() != 1 || from < 0 || from + shape.size() > size) {
      throw new IllegalArgumentException("cannot view " + shape + " at " + from + " of " + this);
    }
    PointerByReference slice = new PointerByReference();
    Mx.check(
        Mx.api().MXNDArraySlice(handle(), (int) from, (int) (from + shape.size()), slice),
        "MXNDArraySlice");
    PointerByReference reshaped = new PointerByReference();
    try {
      Mx.check(
          Mx.api().MXNDArrayReshape(slice.getValue(), shape.rank(), shape.dims(), reshaped),
          "MXNDArrayReshape");
    } finally {
      Mx.check(Mx.api().MXNDArrayFree(slice.getValue()), "MXNDArrayFree");
    }
    return new Tensor(reshaped.getValue(), shape, device, true);
  }

  /** Takes ownership of an NDArray handle MXNet returned (e.g. from a load) on {@code cpu(0)}. */
  public static Tensor wrapOwned(Pointer handle) {
    return wrap(handle, 0, true);
  }

  /**
   * Wraps an MXNet-returned handle on {@code cpu(device)}; {@code owned} says whether this tensor's
   * {@link #close()} frees it.
   */
  static Tensor wrap(Pointer handle, int device, boolean owned) {
    IntByReference ndim = new IntByReference();
    PointerByReference data = new PointerByReference();
    Mx.check(Mx.api().MXNDArrayGetShapeEx(handle, ndim, data), "MXNDArrayGetShapeEx");
    int[] dims =
        ndim.getValue() <= 0 ? new int[0] : data.getValue().getIntArray(0, ndim.getValue());
    return new Tensor(handle, Shape.of(dims), device, owned);
  }

  /** The array's shape. */
  public Shape shape() {
    return shape;
  }

  /** Number of elements. */
  public long size() {
    return size;
  }

  /** The MXNet handle; valid until {@link #close()}. */
  public Pointer handle() {
    if (handle == null) {
      throw new IllegalStateException("tensor " + shape + " is closed");
    }
    return handle;
  }

  /** Copies {@code values} (row-major, exactly {@link #size()} of them) into the array. */
  public void copyFrom(float[] values) {
    checkLength(values.length);
    toDefaultLayout();
    Mx.check(Mx.api().MXNDArraySyncCopyFromCPU(handle(), values, size), "copy into array");
  }

  /** Copies the next {@link #size()} floats of a direct buffer into the array. */
  public void copyFrom(FloatBuffer values) {
    checkLength(values.remaining());
    if (!values.isDirect()) {
      float[] copy = new float[(int) size];
      values.duplicate().get(copy);
      copyFrom(copy);
      return;
    }
    toDefaultLayout();
    Mx.check(Mx.api().MXNDArraySyncCopyFromCPU(handle(), values.slice(), size), "copy into array");
  }

  /** Copies another MXNet array of the same shape into this one. */
  public void copyFrom(Pointer source) {
    Mx.check(Mx.api().MXNDArraySyncCopyFromNDArray(handle(), source, -1), "copy between arrays");
  }

  /** Waits until every pending write of this array is done. */
  public void waitToRead() {
    Mx.check(Mx.api().MXNDArrayWaitToRead(handle()), "MXNDArrayWaitToRead");
  }

  /** Sets every element to {@code value}. */
  public void fill(float value) {
    float[] v = new float[(int) size];
    if (value != 0f) {
      Arrays.fill(v, value);
    }
    copyFrom(v);
  }

  /** The array's values, row-major (waits for pending writes). */
  public float[] toFloatArray() {
    float[] out = new float[(int) size];
    Mx.check(Mx.api().MXNDArraySyncCopyToCPU(handle(), out, size), "copy out of array");
    return out;
  }

  /** Copies the values into a direct buffer, which must have room for {@link #size()} floats. */
  public void copyTo(FloatBuffer out) {
    if (out.remaining() < size) {
      throw new IllegalArgumentException(
          "buffer has room for " + out.remaining() + " floats, array " + shape + " has " + size);
    }
    Mx.check(Mx.api().MXNDArraySyncCopyToCPU(handle(), out.slice(), size), "copy out of array");
  }

  /**
   * MXNet's oneDNN kernels may have rewritten an array of its own into a blocked layout in place (a
   * convolution or dense weight used in an inference pass), and MXNet's copy from host memory then
   * fails ("We can't generate TBlob for MKLDNN data"). {@code MXNDArrayGetData} turns such an array
   * back to the default layout first and does nothing to any other. Views never reach those kernels
   * in inference (see {@link ParameterStore}), so this never reorders a view.
   */
  private void toDefaultLayout() {
    Mx.check(Mx.api().MXNDArrayGetData(handle(), new PointerByReference()), "MXNDArrayGetData");
  }

  private void checkLength(long n) {
    if (n != size) {
      throw new IllegalArgumentException(
          "array of shape " + shape + " takes " + size + " values, got " + n);
    }
  }

  /** Frees the handle if this tensor owns it. Idempotent. */
  @Override
  public void close() {
    if (handle != null) {
      if (owned) {
        Mx.check(Mx.api().MXNDArrayFree(handle), "MXNDArrayFree");
      }
      handle = null;
    }
  }

  @Override
  public String toString() {
    return "Tensor" + shape;
  }
}
