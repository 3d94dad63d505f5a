package dev.kiln.runtime.graph;

/**
 * Where a graph node was declared: the node's name, the model method that declared it and the
 * annotation that made it. Errors from MXNet are reported against this.
 *
 * @param node the node's name (the method's name)
 * @param declaration the declaring method, e.g. {@code FashionMlp.hidden()}
 * @param annotation the annotation as written, e.g. {@code @Dense(units = 128)}
 */
public record NodeSource(String node, String declaration, String annotation) {
  /** {@code FashionMlp.hidden() @Dense(units = 128)}. */
  @Override
  public String toString() {
    return declaration + " " + annotation;
  }
}
