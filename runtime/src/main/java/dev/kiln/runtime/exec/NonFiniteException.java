package dev.kiln.runtime.exec;

/**
 * A NaN or an infinity in a gradient an update was about to apply: training diverged. MXNet would
 * carry it into the weights silently; Kiln skips the update, so the parameters stay those from
 * before it, and says where the value is. (Non-finite <em>inputs</em> are rejected before they
 * reach MXNet with an {@link IllegalArgumentException}.)
 */
public final class NonFiniteException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}, which names the array, the element and the value. */
  public NonFiniteException(String message) {
    super(message);
  }
}
