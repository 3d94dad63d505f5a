package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.d;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.BatchNorm;
import dev.kiln.names.AuxRole;
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
 * {@code @BatchNorm}: MXNet's {@code BatchNorm}, with its moving averages as auxiliary states.
 *
 * @param eps added to the variance
 * @param momentum decay of the moving averages
 * @param axis the channel axis, as written
 * @param fixGamma whether the scale is fixed at 1, MXNet's {@code fix_gamma} (never for the
 *     annotation; an imported file's default)
 */
record BatchNormOp(double eps, double momentum, int axis, boolean fixGamma) implements Op {
  static final OpReader<BatchNorm> READER =
      OpReader.of(
          BatchNorm.class,
          b -> new BatchNormOp(b.eps(), b.momentum(), b.axis(), false),
          "eps",
          "momentum",
          "axis");

  @Override
  public String annotation() {
    return "BatchNorm";
  }

  @Override
  public String mxnetOp() {
    return "BatchNorm";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.eps(eps);
    site.momentum(momentum);
  }

  /**
   * MXNet {@code BatchNormShape}: the input's shape; gamma and beta and the moving averages are
   * {@code [C]} for the size C of the channel axis.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    int c = site.channels("@BatchNorm", axis);
    return new Inferred(
        site.shape(),
        List.of(
            site.param(ParamRole.GAMMA, TShape.of(c)), site.param(ParamRole.BETA, TShape.of(c))),
        List.of(
            site.aux(AuxRole.MOVING_MEAN, TShape.of(c)),
            site.aux(AuxRole.MOVING_VAR, TShape.of(c))));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 4 * out.perExample(); // (x - mean) / std * gamma + beta, statistics precomputed
  }

  /**
   * The channel axis goes out non-negative: MXNet takes BatchNorm's oneDNN path only for axis 1 as
   * written, so -3 of a rank-4 input goes out as 1 (the CPU fallback for other spellings fails the
   * backward pass of a oneDNN convolution's output, "Check failed: !is_view", found by the
   * differential suite).
   */
  @Override
  public NodeCall call(CallSite site) {
    int channel = axis < 0 ? axis + site.shape().rank() : axis;
    return NodeCall.Builder.of(
        "node",
        chain("BatchNormSpec", "channelAxis", i(channel))
            .then("eps", d(eps))
            .then("momentum", d(momentum))
            .when(fixGamma, "fixGamma")
            .build(),
        x());
  }
}
