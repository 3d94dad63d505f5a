package dev.kiln.runtime.graph;

/**
 * One learnable parameter of a graph.
 *
 * @param name MXNet's argument name, {@code <node>_weight} or {@code <node>_bias}
 * @param shape its complete shape
 * @param node the node that owns it
 * @param kind what the parameter is, which decides how it is initialised
 */
public record ParamSpec(String name, Shape shape, String node, Kind kind) {
  /** What a parameter is for. */
  public enum Kind {
    /** A weight matrix or kernel: initialised by the model's initialiser. */
    WEIGHT,
    /** A bias: initialised to zero. */
    BIAS
  }
}
