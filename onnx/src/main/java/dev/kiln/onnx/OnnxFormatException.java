package dev.kiln.onnx;

/**
 * A file that is not an ONNX model Kiln can read, or a tensor in it whose values do not fit its
 * declaration. The message names the file and where it broke.
 */
public final class OnnxFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An error with {@code message}, caused by {@code cause} (or null). */
  public OnnxFormatException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An error with {@code message}. */
  public OnnxFormatException(String message) {
    super(message);
  }
}
