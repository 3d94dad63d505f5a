package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;

/**
 * Array handles gathered once for a C parameter of type {@code NDArrayHandle*} that is passed again
 * and again, such as an executor's head gradients at every backward pass ({@link
 * ExecutorHandle#backward}). It holds the native handles, not the handle objects, and owns none:
 * the arrays must outlive it.
 */
public final class HandleArray {
  /** No arrays. */
  public static final HandleArray EMPTY = new HandleArray(new Pointer[0]);

  private final Pointer[] pointers;

  private HandleArray(Pointer[] pointers) {
    this.pointers = pointers;
  }

  /** The handles of {@code arrays}, in order (each must be open). */
  public static HandleArray of(NDArrayHandle... arrays) {
    return arrays.length == 0 ? EMPTY : new HandleArray(NDArrayHandle.pointers(arrays));
  }

  /** How many arrays. */
  public int size() {
    return pointers.length;
  }

  /** The native handles, for this package's C calls; not to be changed. */
  Pointer[] pointers() {
    return pointers;
  }
}
