package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * A float32 MXNet NDArray on the CPU that Kiln owns: a parameter, a gradient, or an executor's
 * input, output or head-gradient array. Its handle ({@link NDArrayHandle}) is freed by {@link
 * #close()}; which object closes it is stated where it is made.
 */
public final class Tensor implements AutoCloseable {
  private final Shape shape;
  private final long size;
  private final int device;
  private NDArrayHandle handle;

  private Tensor(NDArrayHandle handle, Shape shape, int device) {
    this.handle = handle;
    this.shape = shape;
    this.size = shape.size();
    this.device = device;
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
    Tensor t = new Tensor(NDArrayHandle.create(shape.dims(), device), shape, device);
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
    NDArrayHandle reshaped;
    try (NDArrayHandle slice = handle().slice((int) from, (int) (from + shape.size()))) {
      reshaped = slice.reshape(shape.dims());
    }
    return new Tensor(reshaped, shape, device);
  }

  /**
   * Takes ownership of an NDArray handle MXNet handed over (e.g. to a key-value store's updater) on
   * {@code cpu(0)}.
   */
  public static Tensor wrapOwned(NDArrayHandle handle) {
    return wrap(handle, 0);
  }

  /** Takes ownership of an MXNet-returned handle on {@code cpu(device)}, reading its shape. */
  static Tensor wrap(NDArrayHandle handle, int device) {
    return new Tensor(handle, Shape.of(handle.shape()), device);
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
  public NDArrayHandle handle() {
    if (handle == null) {
      throw new IllegalStateException("tensor " + shape + " is closed");
    }
    return handle;
  }

  /** Copies {@code values} (row-major, exactly {@link #size()} of them) into the array. */
  public void copyFrom(float[] values) {
    checkLength(values.length);
    NDArrayHandle h = handle();
    toDefaultLayout(h);
    h.copyFrom(values, size);
  }

  /**
   * Copies {@code values} (exactly {@link #size()} of them) into an array that a {@link
   * dev.kiln.runtime.mxnet.WriteFence} queued after its last reader guards: waits with MXNet's
   * plain wait to read, which returns at once when the fence has run, then writes the array's
   * memory.
   */
  public void copyFromFenced(float[] values) {
    checkLength(values.length);
    NDArrayHandle h = handle();
    h.waitToRead();
    h.writeInPlace(values, (int) size);
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
    NDArrayHandle h = handle();
    toDefaultLayout(h);
    h.copyFrom(values.slice(), size);
  }

  /** Copies another MXNet array of the same shape into this one. */
  public void copyFrom(Tensor source) {
    handle().copyFrom(source.handle());
  }

  /** Waits until every pending write of this array is done. */
  public void waitToRead() {
    handle().waitToRead();
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
    handle().copyTo(out, size);
    return out;
  }

  /** Copies the values into a direct buffer, which must have room for {@link #size()} floats. */
  public void copyTo(FloatBuffer out) {
    if (out.remaining() < size) {
      throw new IllegalArgumentException(
          "buffer has room for " + out.remaining() + " floats, array " + shape + " has " + size);
    }
    handle().copyTo(out.slice(), size);
  }

  /**
   * MXNet's oneDNN kernels may have rewritten an array of its own into a blocked layout in place (a
   * convolution or dense weight used in an inference pass), and MXNet's copy from host memory then
   * fails ("We can't generate TBlob for MKLDNN data"). {@code MXNDArrayGetData} turns such an array
   * back to the default layout first and does nothing to any other. Views never reach those kernels
   * in inference (see {@link ParameterStore}), so this never reorders a view.
   */
  private static void toDefaultLayout(NDArrayHandle h) {
    h.toDefaultLayout();
  }

  private void checkLength(long n) {
    if (n != size) {
      throw new IllegalArgumentException(
          "array of shape " + shape + " takes " + size + " values, got " + n);
    }
  }

  /** Frees the handle. Idempotent. */
  @Override
  public void close() {
    if (handle != null) {
      handle.close();
      handle = null;
    }
  }

  @Override
  public String toString() {
    return "Tensor" + shape;
  }
}
