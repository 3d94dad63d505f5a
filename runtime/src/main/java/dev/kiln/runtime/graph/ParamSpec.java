package dev.kiln.runtime.graph;

/**
 * One learnable parameter of a graph.
 *
 * @param name MXNet's argument name, e.g. {@code <node>_weight}, {@code <node>_bias} or {@code
 *     <node>_gamma}
 * @param shape its complete shape
 * @param node the node that owns it
 * @param kind what the parameter is, which decides how it is initialised
 * @param constant the value every element starts at, for {@link Kind#CONSTANT}; 0 for other kinds
 */
public record ParamSpec(String name, Shape shape, String node, Kind kind, float constant) {
  /** A parameter of any kind but {@link Kind#CONSTANT}. */
  public ParamSpec(String name, Shape shape, String node, Kind kind) {
    this(name, shape, node, kind, 0f);
  }

  /** What a parameter is for. */
  public enum Kind {
    /**
     * A weight matrix or kernel, or a custom layer's {@code @Param} with {@code ParamInit.MODEL}:
     * initialised by the model's initialiser.
     */
    WEIGHT,
    /**
     * A bias (or a normalisation's beta, or a custom {@code @Param} with {@code ParamInit.ZEROS}):
     * initialised to zero.
     */
    BIAS,
    /**
     * A normalisation's scale (gamma), or a custom {@code @Param} with {@code ParamInit.ONES}:
     * initialised to one.
     */
    GAMMA,
    /** A parametric ReLU's slope per channel: initialised to {@code ParamRole.ALPHA.start()}. */
    SLOPE,
    /**
     * A fused recurrent layer's flat vector ({@code <node>_parameters}): each gate's matrices
     * initialised by the model's initialiser with their own fans, biases at zero (an LSTM's
     * forget-gate input bias at one); see {@link Graph#rnnLayout}.
     */
    RECURRENT,
    /**
     * A custom {@code @Param} with {@code ParamInit.CONSTANT}: every element initialised to its
     * {@link ParamSpec#constant()}.
     */
    CONSTANT
  }
}
