package dev.kiln.ops;

import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.PRelu;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * A parametric ReLU ({@code @PRelu}) over {@code [N, C, ...]}: MXNet's {@code LeakyReLU} with
 * {@code act_type = prelu}, {@code x} where {@code x > 0} and {@code alpha[c] · x} elsewhere, with
 * a learned slope per channel (axis 1). Its parameter {@code <node>_alpha} of shape {@code [C]}
 * (the operator's {@code gamma} input; Gluon's {@code PReLU} names it {@code alpha}) starts at 0.25
 * ({@link ParamRole#ALPHA}). Generated code writes {@code PReluOp.perChannel()}.
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
public record PReluOp() implements LayerOp {
  static final OpReader<PRelu> READER = OpReader.of(PRelu.class, p -> new PReluOp());

  @Override
  public String annotation() {
    return "PRelu";
  }

  @Override
  public String mxnetOp() {
    return "LeakyReLU(prelu)";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code LeakyReLUShape} for {@code prelu}: the input's shape, and {@code gamma} of shape
   * {@code [C]}, {@code C} the size of axis 1, which must exist and be known.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() < 2) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "@PRelu",
          "2 or more",
          "[N, C, ...]",
          site.x().describe(),
          "");
    }
    int c = s.dim(1);
    if (c < 0) {
      throw site.fail(
          Message.UNKNOWN_CHANNELS,
          null,
          site.where(),
          "@PRelu",
          1,
          "its channels",
          site.x().describe());
    }
    return new Inferred(s, List.of(site.param(ParamRole.ALPHA, TShape.of(c))), List.of());
  }

  /** A comparison and a product per value. */
  @Override
  public long flops(List<TShape> in, TShape out) {
    return 2 * out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", Args.chain(PReluOp.class, "perChannel").build(), x());
  }

  /** One learned slope per channel. */
  public static PReluOp perChannel() {
    return new PReluOp();
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

  /** How the layer is read: its annotation. */
  static final Unit UNIT = Unit.of(READER);
}
