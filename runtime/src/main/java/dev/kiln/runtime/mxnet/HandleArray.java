package dev.kiln.runtime.mxnet;

import com.sun.jna.Memory;
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

  private final int size;

  /** The handles as one native block, made once (JNA would otherwise copy an array every call). */
  private final Memory block;

  private HandleArray(Pointer[] pointers) {
    this.size = pointers.length;
    this.block = pointers.length == 0 ? null : Mx.handleBlock(pointers);
  }

  /** The handles of {@code arrays}, in order (each must be open). */
  public static HandleArray of(NDArrayHandle... arrays) {
    return arrays.length == 0 ? EMPTY : new HandleArray(NDArrayHandle.pointers(arrays));
  }

  /** How many arrays. */
  public int size() {
    return size;
  }

  /** The native block of handles, for this package's C calls (null for none); not to be changed. */
  Pointer block() {
    return block;
  }
}
