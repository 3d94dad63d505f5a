package dev.kiln.runtime.graph;

import dev.kiln.ops.emit.NodeSource;

/**
 * An error at graph-build, bind or run time that Kiln traced back to the node that caused it. The
 * message names the model, the node, the declaring method and the annotation, followed by MXNet's
 * own text where MXNet raised it.
 */
public final class ModelException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient NodeSource source;

  /** An error caused by {@code source}. */
  public ModelException(NodeSource source, String message, Throwable cause) {
    super(message, cause);
    this.source = source;
  }

  /** The node the error was traced to, or null when MXNet named none. */
  public NodeSource source() {
    return source;
  }
}
