package dev.kiln.runtime.mxnet;

/** A call into MXNet failed; the message is MXNet's own text, prefixed with the call. */
public final class MxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String mxnetMessage;

  MxException(String call, String mxnetMessage) {
    super(call + " failed: " + mxnetMessage);
    this.mxnetMessage = mxnetMessage;
  }

  /** MXNet's own error text, as {@code MXGetLastError} returned it. */
  public String mxnetMessage() {
    return mxnetMessage;
  }
}
