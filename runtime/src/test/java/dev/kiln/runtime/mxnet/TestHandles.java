package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;

/** For tests that call MXNet's C API themselves: the native pointer behind a typed handle. */
public final class TestHandles {
  private TestHandles() {}

  /** The native handle of {@code array}. */
  public static Pointer pointer(NDArrayHandle array) {
    return array.pointer();
  }

  /** Takes ownership of an NDArray handle a test got from MXNet itself. */
  public static NDArrayHandle adopt(Pointer handle) {
    return new NDArrayHandle(handle);
  }
}
