package dev.kiln.onnx;

/**
 * A model that cannot be written as ONNX: the message names the node, its MXNet operator and why.
 * Thrown before anything is written.
 */
public final class OnnxExportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An export refused for {@code message}. */
  public OnnxExportException(String message) {
    super(message);
  }
}
