package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.List;

/**
 * A parametric ReLU ({@code @PRelu}) over {@code [N, C, ...]}: MXNet's {@code LeakyReLU} with
 * {@code act_type = prelu}, {@code x} where {@code x > 0} and {@code alpha[c] · x} elsewhere, with
 * a learned slope per channel (axis 1). Its parameter {@code <node>_alpha} of shape {@code [C]}
 * (the operator's {@code gamma} input; Gluon's {@code PReLU} names it {@code alpha}) starts at 0.25
 * ({@link ParamRole#ALPHA}). Generated code writes {@code PReluSpec.perChannel()}.
 *
 * <p><b>Two operators, one for each gradient.</b> MXNet 1.9.1's {@code LeakyReLU} backward writes
 * the input's gradient before it reduces the slope's, and may write it in place of the output's
 * gradient, which it then reads: whenever the input is another node's output (the memory planner
 * shares the two arrays), the slope's gradient comes out multiplied by the slope (measured, {@code
 * PReluTest}). So the node is {@code values + (slopes - BlockGrad(slopes))} with {@code values =
 * LeakyReLU(x, BlockGrad(alpha))} ({@code <node>_values}: the output and the input's gradient) and
 * {@code slopes = LeakyReLU(BlockGrad(x), alpha)} ({@code <node>_slopes}: the slope's gradient,
 * computed without an input gradient to write over it); the second term is zero, and the node's
 * name is on the sum.
 */
public record PReluSpec() implements LayerOp {
  /** One learned slope per channel. */
  public static PReluSpec perChannel() {
    return new PReluSpec();
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    String node = scope.node();
    Sym x = inputs.get(0);
    Sym alpha = scope.param(ParamRole.ALPHA);
    Sym values = prelu(scope, node + "_values", x, blocked(scope, alpha, "alpha"));
    Sym slopes = prelu(scope, node + "_slopes", blocked(scope, x, "data"), alpha);
    Sym zero =
        scope.op(
            "elemwise_sub",
            node + "_slopes_zero",
            Attrs.of(),
            List.of("lhs", "rhs"),
            List.of(slopes, blocked(scope, slopes, "slopes")));
    return scope.op("elemwise_add", node, Attrs.of(), List.of("lhs", "rhs"), List.of(values, zero));
  }

  private static Sym prelu(NodeScope scope, String name, Sym x, Sym alpha) {
    return scope.op(
        "LeakyReLU",
        name,
        Attrs.of("act_type", "prelu"),
        List.of("data", "gamma"),
        List.of(x, alpha));
  }

  private static Sym blocked(NodeScope scope, Sym x, String what) {
    return scope.op(
        "BlockGrad",
        scope.node() + "_" + what + "_blocked",
        Attrs.of(),
        List.of("data"),
        List.of(x));
  }
}
