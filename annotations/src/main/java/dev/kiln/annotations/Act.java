package dev.kiln.annotations;

/** Element-wise activation functions, with the names MXNet's {@code Activation} uses. */
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
  SOFTSIGN("softsign");

  private final String mxnetName;

  Act(String mxnetName) {
    this.mxnetName = mxnetName;
  }

  /** The {@code act_type} MXNet's {@code Activation} operator knows this function by. */
  public String mxnetName() {
    return mxnetName;
  }
}
