package dev.kiln.runtime.exec;

/**
 * A NaN or an infinity in a gradient an update applied: training diverged. MXNet would carry it
 * into the weights silently; Kiln takes the update back, so the parameters are those from before
 * it, and says where the value is. (Non-finite <em>inputs</em> are rejected before they reach MXNet
 * with an {@link IllegalArgumentException}.)
 */
public final class NonFiniteException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final boolean previousCall;

  /** An exception with {@code message}, which names the array, the element and the value. */
  public NonFiniteException(String message) {
    this(message, false);
  }

  /**
   * An exception with {@code message}; {@code previousCall}: the update belonged to the model's
   * previous call, whose check this call made first.
   */
  public NonFiniteException(String message, boolean previousCall) {
    super(message);
    this.previousCall = previousCall;
  }

  /**
   * Whether the refused update was the previous call's (a training step that returned before its
   * gradients were known), not the throwing call's own.
   */
  public boolean previousCall() {
    return previousCall;
  }
}
