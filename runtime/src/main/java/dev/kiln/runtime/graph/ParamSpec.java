package dev.kiln.runtime.graph;

/**
 * One learnable parameter of a graph.
 *
 * @param name MXNet's argument name, e.g. {@code <node>_weight}, {@code <node>_bias} or {@code
 *     <node>_gamma}
 * @param shape its complete shape
 * @param node the node that owns it
 * @param kind what the parameter is, which decides how it is initialised
 */
public record ParamSpec(String name, Shape shape, String node, Kind kind) {
  /** What a parameter is for. */
  public enum Kind {
    /** A weight matrix or kernel: initialised by the model's initialiser. */
    WEIGHT,
    /** A bias (or a normalisation's beta): initialised to zero. */
    BIAS,
    /** A normalisation's scale (gamma): initialised to one. */
    GAMMA,
    /** A parametric ReLU's slope per channel: initialised to {@code ParamRole.ALPHA.start()}. */
    SLOPE,
    /**
     * A fused recurrent layer's flat vector ({@code <node>_parameters}): each gate's matrices
     * initialised by the model's initialiser with their own fans, biases at zero (an LSTM's
     * forget-gate input bias at one); see {@link Graph#rnnLayout}.
     */
    RECURRENT
  }
}
