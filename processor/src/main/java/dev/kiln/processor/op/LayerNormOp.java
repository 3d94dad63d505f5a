package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.d;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.LayerNorm;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;

/**
 * {@code @LayerNorm}: MXNet's {@code LayerNorm}.
 *
 * @param axis the axis normalised over
 * @param eps added to the variance
 */
record LayerNormOp(int axis, double eps) implements Op {
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
        "node", chain("LayerNormSpec", "axis", i(axis)).then("eps", d(eps)).build(), x());
  }
}
