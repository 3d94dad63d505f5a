package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.InstanceNorm;
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
 * Instance normalisation over the spatial axes of {@code [N, C, ...]} ({@code @InstanceNorm}):
 * MXNet's {@code InstanceNorm} with gamma and beta per channel. Generated code writes {@code
 * InstanceNormOp.eps(1e-5)}.
 *
 * @param eps added to the variance before the square root
 */
public record InstanceNormOp(double eps) implements LayerOp {
  static final OpReader<InstanceNorm> READER =
      OpReader.of(InstanceNorm.class, n -> new InstanceNormOp(n.eps()), "eps");

  @Override
  public String annotation() {
    return "InstanceNorm";
  }

  @Override
  public String mxnetOp() {
    return "InstanceNorm";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.eps(eps);
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code InstanceNormShape}: rank 3 or more; the input's shape; gamma and beta of the
   * channels (axis 1), which must be known.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() < 3) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "@InstanceNorm",
          "3 or higher",
          "[N, C, ...]",
          site.x().describe(),
          "");
    }
    int c = site.channels("@InstanceNorm", 1);
    return new Inferred(
        s,
        List.of(
            site.param(ParamRole.GAMMA, TShape.of(c)), site.param(ParamRole.BETA, TShape.of(c))),
        List.of());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 7 * out.perExample(); // mean, variance, normalise, scale and shift per element
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", chain(InstanceNormOp.class, "eps", d(eps)).build(), x());
  }

  /** Instance normalisation adding {@code eps} to the variance. */
  public static InstanceNormOp eps(double eps) {
    return new InstanceNormOp(eps);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "InstanceNorm",
        scope.node(),
        Attrs.of("eps", eps),
        List.of("data", "gamma", "beta"),
        List.of(inputs.get(0), scope.param(ParamRole.GAMMA), scope.param(ParamRole.BETA)));
  }

  /** How the layer is read: its annotation. */
  static final Unit UNIT = Unit.of(READER);
}
