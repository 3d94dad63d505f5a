package dev.kiln.runtime.data;

import java.io.IOException;

/**
 * Thrown when a dataset file exists but its contents are not what was expected: a wrong magic
 * number, impossible dimensions, a payload of the wrong length, corrupt gzip data, or values out of
 * range. The message names the file, what was expected and what was found.
 */
public class IdxFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with the given message.
   *
   * @param message a description naming the file, what was expected and what was found
   */
  public IdxFormatException(String message) {
    super(message);
  }

  /**
   * Creates an exception with the given message and cause.
   *
   * @param message a description naming the file, what was expected and what was found
   * @param cause the lower-level error, for example a {@link java.util.zip.ZipException}
   */
  public IdxFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
