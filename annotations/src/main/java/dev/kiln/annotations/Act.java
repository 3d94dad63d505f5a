package dev.kiln.annotations;

/**
 * Element-wise activation functions. The first five are MXNet's {@code Activation} operator; GELU,
 * ELU, SELU and the leaky ReLU its {@code LeakyReLU} operator; SiLU and Mish are made of {@code
 * Activation}s and a product (MXNet 1.9.1 has no operator of its own for them).
 */
public enum Act {
  /** No activation: the identity. */
  NONE(""),
  /** {@code max(0, x)}. */
  RELU("relu"),
  /** {@code 1 / (1 + exp(-x))}. */
  SIGMOID("sigmoid"),
  /** Hyperbolic tangent. */
  TANH("tanh"),
  /** {@code log(1 + exp(x))}. */
  SOFTRELU("softrelu"),
  /** {@code x / (1 + |x|)}. */
  SOFTSIGN("softsign"),
  /** {@code x · Φ(x)}, Φ the standard normal CDF (exact, not the tanh approximation). */
  GELU("gelu"),
  /** {@code x · sigmoid(x)} (swish). */
  SILU("silu"),
  /** {@code x} for {@code x > 0}, else {@code 0.01 · x}. */
  LEAKY_RELU("leaky"),
  /** {@code x} for {@code x > 0}, else {@code exp(x) - 1} (alpha 1). */
  ELU("elu"),
  /**
   * {@code λ · x} for {@code x > 0}, else {@code λ · α · (exp(x) - 1)}, with MXNet's {@code λ ≈
   * 1.0507} and {@code α ≈ 1.6733}.
   */
  SELU("selu"),
  /** {@code x · tanh(softrelu(x))}. */
  MISH("mish");

  private final String mxnetName;

  Act(String mxnetName) {
    this.mxnetName = mxnetName;
  }

  /**
   * The name MXNet knows this function by: the {@code act_type} of its {@code Activation} or {@code
   * LeakyReLU} operator; {@code silu} and {@code mish} for the two Kiln composes.
   */
  public String mxnetName() {
    return mxnetName;
  }
}
