package dev.kiln.runtime.exec;

import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;

/**
 * An array of its own holding a copy of another ({@code source}), refreshed by an MXNet copy queued
 * on the engine (ordered after the writes to the source before it, and before those after it): the
 * inference copies of reordered weights, and the copies a checked update keeps to take a bad step
 * back. It owns the copy, not the source.
 *
 * <p>The copy is MXNet's {@code _copy} operator, not {@code _copyto}: an inference pass may leave
 * the copy in oneDNN's blocked layout, which {@code _copy}'s oneDNN kernel writes into, where
 * {@code _copyto} fails ({@code Check failed: to.IsDefaultData()}, measured on a 1-D convolution's
 * weight after an update).
 */
public final class ArrayCopy implements AutoCloseable {
  private static final String[] NO_STRINGS = {};

  private final Tensor source;
  private final Tensor copy;
  private final PreparedOp refresh;

  /** A zero-filled array shaped like {@code source}, on its context, and the prepared copy. */
  public ArrayCopy(Tensor source) {
    this.source = source;
    this.copy = Tensor.zeros(source.shape(), source.device());
    try {
      this.refresh =
          new PreparedOp(
              "_copy", new NDArrayHandle[] {source.handle()}, new NDArrayHandle[] {copy.handle()});
    } catch (RuntimeException e) {
      copy.close();
      throw e;
    }
  }

  /** The copy. */
  public Tensor copy() {
    return copy;
  }

  /** Queues a copy of the source's values into the copy; returns at once. */
  public void refresh() {
    refresh.run(NO_STRINGS, NO_STRINGS);
  }

  /** Writes the copy's values back into the source, after every write queued to it; waits. */
  public void restoreSource() {
    source.copyFrom(copy);
  }

  /** Frees the copy. Idempotent. */
  @Override
  public void close() {
    copy.close();
  }
}
