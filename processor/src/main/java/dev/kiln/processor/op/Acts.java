package dev.kiln.processor.op;

import dev.kiln.annotations.Act;

/** How the layer table names the MXNet operators an activation is made of. */
final class Acts {
  private Acts() {}

  /** {@code Activation(relu)}, {@code LeakyReLU(gelu)}, {@code x·sigmoid(x)}, ... */
  static String op(Act act) {
    return switch (act) {
      case NONE -> "";
      case RELU, SIGMOID, TANH, SOFTRELU, SOFTSIGN -> "Activation(" + act.mxnetName() + ")";
      case GELU, ELU, LEAKY_RELU -> "LeakyReLU(" + act.mxnetName() + ")";
      case SELU -> "λ·LeakyReLU(elu)";
      case SILU -> "x·sigmoid(x)";
      case MISH -> "x·tanh(softrelu(x))";
    };
  }
}
