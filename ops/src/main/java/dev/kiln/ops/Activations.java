package dev.kiln.ops;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeScope;
import java.util.List;

/**
 * How each {@link Act} is made of MXNet 1.9.1's operators: {@code Activation} for relu, sigmoid,
 * tanh, softrelu and softsign; {@code LeakyReLU} for GELU, ELU (slope 1) and the leaky ReLU (slope
 * 0.01); SELU as {@code λ · elu_α(x)}; SiLU as {@code x · sigmoid(x)} and Mish as {@code x ·
 * tanh(softrelu(x))}.
 *
 * <p>SELU is not MXNet's {@code LeakyReLU(act_type = selu)}: that operator's backward pass computes
 * {@code λ · (y + α)} below zero where the derivative is {@code y + λ · α} (measured, {@code
 * ActivationsTest}), so gradients through it are off by {@code (λ - 1) · y}. An ELU of slope {@code
 * α}, whose backward is right, scaled by {@code λ} is the same function with the right gradient.
 */
public final class Activations {
  /** The leaky ReLU's slope below zero, as PyTorch's default. */
  public static final double LEAKY_SLOPE = 0.01;

  /** SELU's {@code λ}, as MXNet's {@code SELU_LAMBDA}. */
  public static final double SELU_LAMBDA = 1.0507009873554804934193349852946;

  /** SELU's {@code α}, as MXNet's {@code SELU_ALPHA}. */
  public static final double SELU_ALPHA = 1.6732632423543772848170429916717;

  private Activations() {}

  /** {@code act} of {@code x}, its last operator named {@code name}. */
  public static Sym apply(NodeScope scope, String name, Sym x, Act act) {
    return apply(scope, name, x, act, Double.NaN);
  }

  /**
   * {@code act} of {@code x}, its last operator named {@code name}, a leaky ReLU's slope or an
   * ELU's scale {@code slope} unless NaN.
   */
  static Sym apply(NodeScope scope, String name, Sym x, Act act, double slope) {
    if (!Double.isNaN(slope) && (act == Act.LEAKY_RELU || act == Act.ELU)) {
      return leaky(scope, name, x, act.mxnetName(), slope);
    }
    return switch (act) {
      case NONE -> x;
      case RELU, SIGMOID, TANH, SOFTRELU, SOFTSIGN -> activation(scope, name, x, act.mxnetName());
      case GELU -> leaky(scope, name, x, "gelu", 0.25);
      case SELU ->
          scope.op(
              "_mul_scalar",
              name,
              Attrs.of("scalar", SELU_LAMBDA),
              List.of("data"),
              List.of(leaky(scope, name + "_elu", x, "elu", SELU_ALPHA)));
      case ELU -> leaky(scope, name, x, "elu", 1.0);
      case LEAKY_RELU -> leaky(scope, name, x, "leaky", LEAKY_SLOPE);
      case SILU -> times(scope, name, x, activation(scope, name + "_sigmoid", x, "sigmoid"));
      case MISH ->
          times(
              scope,
              name,
              x,
              activation(
                  scope,
                  name + "_tanh",
                  activation(scope, name + "_softrelu", x, "softrelu"),
                  "tanh"));
    };
  }

  /**
   * How the layer table names the MXNet operators {@code act} is made of: {@code Activation(relu)},
   * {@code LeakyReLU(gelu)}, {@code x·sigmoid(x)}, ...
   */
  static String label(Act act) {
    return switch (act) {
      case NONE -> "";
      case RELU, SIGMOID, TANH, SOFTRELU, SOFTSIGN -> "Activation(" + act.mxnetName() + ")";
      case GELU, ELU, LEAKY_RELU -> "LeakyReLU(" + act.mxnetName() + ")";
      case SELU -> "λ·LeakyReLU(elu)";
      case SILU -> "x·sigmoid(x)";
      case MISH -> "x·tanh(softrelu(x))";
    };
  }

  private static Sym activation(NodeScope scope, String name, Sym x, String type) {
    return scope.op("Activation", name, Attrs.of("act_type", type), List.of("data"), List.of(x));
  }

  private static Sym leaky(NodeScope scope, String name, Sym x, String type, double slope) {
    return scope.op(
        "LeakyReLU", name, Attrs.of("act_type", type, "slope", slope), List.of("data"), List.of(x));
  }

  private static Sym times(NodeScope scope, String name, Sym a, Sym b) {
    return scope.op("elemwise_mul", name, Attrs.of(), List.of("lhs", "rhs"), List.of(a, b));
  }
}
