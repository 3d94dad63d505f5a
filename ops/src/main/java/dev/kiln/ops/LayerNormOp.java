package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * The attributes of a layer normalisation ({@code @LayerNorm}), as generated code passes them to
 * the runtime's graph builder: {@code LayerNormOp.axis(-1).eps(1e-5)}.
 *
 * @param axis the axis normalised over
 * @param eps added to the variance
 */
public record LayerNormOp(int axis, double eps) implements LayerOp {
  static final OpReader<LayerNorm> READER =
      OpReader.of(LayerNorm.class, l -> new LayerNormOp(l.axis(), l.eps()), "axis", "eps");

  @Override
  public String annotation() {
    return "LayerNorm";
  }

  @Override
  public String mxnetOp() {
    return "LayerNorm";
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

  /** MXNet {@code LayerNormShape}: the input's shape; gamma and beta {@code [C]} of the axis. */
  @Override
  public Inferred infer(ShapeSite site) {
    int c = site.channels("@LayerNorm", axis);
    return new Inferred(
        site.shape(),
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
    return NodeCall.Builder.of(
        "node", chain(LayerNormOp.class, "axis", i(axis)).then("eps", d(eps)).build(), x());
  }

  /** Normalises along {@code axis} with eps 1e-5. */
  public static LayerNormOp axis(int axis) {
    return new LayerNormOp(axis, 1e-5);
  }

  /** This normalisation with {@code eps} added to the variance. */
  public LayerNormOp eps(double eps) {
    return new LayerNormOp(axis, eps);
  }

  /**
   * MXNet's {@code LayerNorm}: parameters {@code <node>_gamma} (starting at 1) and {@code
   * <node>_beta}.
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "LayerNorm",
        scope.node(),
        Attrs.of("axis", axis, "eps", eps),
        List.of("data", "gamma", "beta"),
        List.of(inputs.get(0), scope.param(ParamRole.GAMMA), scope.param(ParamRole.BETA)));
  }

  /** How the layer is read: its annotation. */
  static final Unit UNIT = Unit.of(READER);
}
