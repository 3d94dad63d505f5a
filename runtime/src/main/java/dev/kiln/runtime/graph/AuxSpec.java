package dev.kiln.runtime.graph;

/**
 * One auxiliary state of a graph: an array an operator reads and, in training mode, updates itself
 * (MXNet's {@code aux_states}, e.g. a {@code BatchNorm}'s moving averages). It is not a learnable
 * parameter: it has no gradient and no optimizer touches it, but it is saved and loaded with the
 * model.
 *
 * @param name MXNet's name, e.g. {@code <node>_moving_mean}
 * @param shape its complete shape
 * @param node the node that owns it
 * @param kind what it holds, which decides its initial value
 */
public record AuxSpec(String name, Shape shape, String node, Kind kind) {
  /** What an auxiliary state holds. */
  public enum Kind {
    /** A moving mean: starts at 0. */
    MOVING_MEAN(0f),
    /** A moving variance: starts at 1. */
    MOVING_VAR(1f);

    private final float initialValue;

    Kind(float initialValue) {
      this.initialValue = initialValue;
    }

    /** The value every element starts at. */
    public float initialValue() {
      return initialValue;
    }
  }
}
