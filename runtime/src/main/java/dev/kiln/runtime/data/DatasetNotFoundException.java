package dev.kiln.runtime.data;

import java.io.IOException;

/**
 * Thrown when a dataset directory or one of its files does not exist. The message says how to
 * obtain the data, so a command-line program can print it as is, without a stack trace.
 */
public class DatasetNotFoundException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with the given message.
   *
   * @param message what is missing and how to get it
   */
  public DatasetNotFoundException(String message) {
    super(message);
  }
}
