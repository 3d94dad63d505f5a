package dev.kiln.runtime.exec;

import dev.kiln.runtime.mxnet.HandleArray;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.WriteFence;

/**
 * The arrays an executor's owner copies each batch into (its inputs, and a classifier's labels),
 * with the {@link WriteFence} that lets a copy skip MXNet's synchronous wait: after the owner has
 * queued the passes that read them it calls {@link #queueFence()}, and the next {@link #copyInto}
 * writes the array's memory directly once the fence has run. Queueing any other pass that reads the
 * arrays must be preceded by {@link #readersQueued()}, which makes the next copies synchronous
 * again. A training executor's and a predictor's share this. It owns none of the arrays; calls are
 * serialised by its owner.
 */
public final class FencedArrays {
  private final Tensor[] arrays;
  private final HandleArray handles;

  /** Whether fences are queued: {@link WriteFence#enabled()} when the owner binds. */
  private final boolean enabled = WriteFence.enabled();

  private boolean fenced;

  /** Fences over {@code arrays}, all on one CPU context, which must outlive this. */
  public FencedArrays(Tensor... arrays) {
    this.arrays = arrays.clone();
    NDArrayHandle[] h = new NDArrayHandle[arrays.length];
    for (int i = 0; i < arrays.length; i++) {
      h[i] = arrays[i].handle();
    }
    this.handles = HandleArray.of(h);
  }

  /**
   * Queues a fence behind every pass queued on the arrays so far (unless fences are off, or there
   * are no arrays).
   */
  public void queueFence() {
    if (!enabled || arrays.length == 0) {
      return;
    }
    WriteFence.queue(handles, arrays[0].device());
    fenced = true;
  }

  /** A pass that reads the arrays is about to be queued: the fence no longer covers them. */
  public void readersQueued() {
    fenced = false;
  }

  /**
   * Copies {@code values} into array {@code i}: directly when a fence queued since the last pass
   * guards it ({@link Tensor#copyFromFenced}), else with MXNet's synchronous copy.
   */
  public void copyInto(int i, float[] values) {
    if (fenced) {
      arrays[i].copyFromFenced(values);
    } else {
      arrays[i].copyFrom(values);
    }
  }
}
