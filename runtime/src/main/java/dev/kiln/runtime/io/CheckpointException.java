package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A checkpoint file could not be used: it is not a well-formed MXNet NDArray list, holds something
 * Kiln does not read (sparse storage, a dtype other than float32), or does not match the model it
 * is loaded into. The message starts with the file and says what was expected and what was found,
 * e.g. {@code out/fashion-0000.params: array 2 'arg:logits_weight' has shape [10, 64], the model
 * needs [10, 128]}.
 */
public final class CheckpointException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /** A problem with {@code file}; {@code problem} is the text after the file name. */
  public CheckpointException(Path file, String problem) {
    super(file + ": " + problem);
    this.file = file;
  }

  /** The same, caused by {@code cause} (e.g. a malformed UTF-8 key). */
  public CheckpointException(Path file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
  }

  /** The file at fault. */
  public Path file() {
    return file;
  }
}
