package dev.kiln.names;

/**
 * What a built-in layer's learnable parameter is for, and the role part of its MXNet name {@code
 * <node>_<role>} ({@link NodeNames#of}): the names generated code, checkpoints and MXNet's own
 * operators agree on.
 */
public enum ParamRole {
  /** A weight matrix or kernel: {@code hidden_weight}. Initialised by the model's initialiser. */
  WEIGHT("weight"),
  /** An additive bias: {@code hidden_bias}. Starts at zero. */
  BIAS("bias"),
  /** A normalisation's scale: {@code bn_gamma}. Starts at one. */
  GAMMA("gamma"),
  /** A normalisation's shift: {@code bn_beta}. Starts at zero. */
  BETA("beta"),
  /**
   * A fused recurrent layer's flat parameter vector, in MXNet's layout: {@code lstm_parameters}.
   */
  PARAMETERS("parameters"),
  /**
   * Multi-head attention's query projection {@code [heads * keyDim, width]}: {@code
   * attention_query_weight}. Initialised by the model's initialiser, as every weight below.
   */
  QUERY_WEIGHT("query_weight"),
  /** Multi-head attention's query projection bias: {@code att_query_bias}. Starts at zero. */
  QUERY_BIAS("query_bias"),
  /** Multi-head attention's key projection {@code [heads * keyDim, keyWidth]}. */
  KEY_WEIGHT("key_weight"),
  /** Multi-head attention's key projection bias. Starts at zero. */
  KEY_BIAS("key_bias"),
  /** Multi-head attention's value projection {@code [heads * valueDim, valueWidth]}. */
  VALUE_WEIGHT("value_weight"),
  /** Multi-head attention's value projection bias. Starts at zero. */
  VALUE_BIAS("value_bias"),
  /** Multi-head attention's output projection {@code [width, heads * valueDim]}. */
  OUTPUT_WEIGHT("output_weight"),
  /** Multi-head attention's output projection bias. Starts at zero. */
  OUTPUT_BIAS("output_bias");

  private final String role;

  ParamRole(String role) {
    this.role = role;
  }

  /** The role part of the name, e.g. {@code weight}. */
  public String role() {
    return role;
  }

  /** The parameter's MXNet name on node {@code node}, e.g. {@code hidden_weight}. */
  public String of(String node) {
    return NodeNames.of(node, role);
  }
}
