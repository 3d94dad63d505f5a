package dev.kiln.names;

/**
 * What a built-in layer's learnable parameter is for, the role part of its MXNet name {@code
 * <node>_<role>} ({@link NodeNames#of}): the names generated code, checkpoints and MXNet's own
 * operators agree on; and the value it starts at, unless the model's initialiser fills it.
 */
public enum ParamRole {
  /** A weight matrix or kernel: {@code hidden_weight}. Initialised by the model's initialiser. */
  WEIGHT("weight", Double.NaN),
  /** An additive bias: {@code hidden_bias}. Starts at zero. */
  BIAS("bias", 0),
  /** A normalisation's scale: {@code bn_gamma}. Starts at one. */
  GAMMA("gamma", 1),
  /** A normalisation's shift: {@code bn_beta}. Starts at zero. */
  BETA("beta", 0),
  /**
   * A fused recurrent layer's flat parameter vector, in MXNet's layout: {@code lstm_parameters}.
   * Initialised gate by gate (the runtime's recurrent layout).
   */
  PARAMETERS("parameters", Double.NaN),
  /**
   * A parametric ReLU's slope below zero, one per channel: {@code prelu_alpha}, the name Gluon's
   * {@code PReLU} gives it. Starts at 0.25, as Gluon's ({@code Constant(0.25)}) and PyTorch's do,
   * the value He et al. start from ("Delving Deep into Rectifiers", 2015).
   */
  ALPHA("alpha", 0.25),
  /**
   * Multi-head attention's query projection {@code [heads * keyDim, width]}: {@code
   * attention_query_weight}. Initialised by the model's initialiser, as every weight below.
   */
  QUERY_WEIGHT("query_weight", Double.NaN),
  /** Multi-head attention's query projection bias: {@code attention_query_bias}. Starts at zero. */
  QUERY_BIAS("query_bias", 0),
  /** Multi-head attention's key projection {@code [heads * keyDim, keyWidth]}. */
  KEY_WEIGHT("key_weight", Double.NaN),
  /** Multi-head attention's key projection bias. Starts at zero. */
  KEY_BIAS("key_bias", 0),
  /** Multi-head attention's value projection {@code [heads * valueDim, valueWidth]}. */
  VALUE_WEIGHT("value_weight", Double.NaN),
  /** Multi-head attention's value projection bias. Starts at zero. */
  VALUE_BIAS("value_bias", 0),
  /** Multi-head attention's output projection {@code [width, heads * valueDim]}. */
  OUTPUT_WEIGHT("output_weight", Double.NaN),
  /** Multi-head attention's output projection bias. Starts at zero. */
  OUTPUT_BIAS("output_bias", 0),
  /**
   * A tensor an imported model holds as it is, not as a layer's weight (an ONNX initializer read as
   * a value, or a constant): {@code <node>_value}. Starts at zero; {@code loadImported} gives it
   * the file's values.
   */
  VALUE("value", 0);

  private final String role;
  private final double start;

  ParamRole(String role, double start) {
    this.role = role;
    this.start = start;
  }

  /** The role part of the name, e.g. {@code weight}. */
  public String role() {
    return role;
  }

  /**
   * The value every element of such a parameter starts at: 0, 1 or 0.25; NaN for a weight (or a
   * recurrent vector), which the model's initialiser fills.
   */
  public double start() {
    return start;
  }

  /** The parameter's MXNet name on node {@code node}, e.g. {@code hidden_weight}. */
  public String of(String node) {
    return NodeNames.of(node, role);
  }
}
