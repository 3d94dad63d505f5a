package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Sym;
import dev.kiln.names.AuxRole;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
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
 * The attributes of a batch normalisation ({@code @BatchNorm}), as generated code passes them to
 * the runtime's graph builder: {@code BatchNormOp.channelAxis(1).eps(1e-3).momentum(0.9)}.
 *
 * @param eps added to the variance
 * @param momentum decay of the moving averages
 * @param axis the channel axis, as written
 * @param gammaFixed whether the scale is fixed at 1, MXNet's {@code fix_gamma} (never for the
 *     annotation; an imported file's default)
 */
public record BatchNormOp(int axis, double eps, double momentum, boolean gammaFixed)
    implements LayerOp {
  /** The default {@code eps}. */
  public static final double EPS = Defaults.decimal(BatchNorm.class, "eps");

  /** The default {@code momentum}. */
  public static final double MOMENTUM = Defaults.decimal(BatchNorm.class, "momentum");

  static final OpReader<BatchNorm> READER =
      OpReader.of(
          BatchNorm.class,
          b -> new BatchNormOp(b.axis(), b.eps(), b.momentum(), false),
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

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
        chain(BatchNormOp.class, "channelAxis", i(channel))
            .then("eps", d(eps))
            .then("momentum", d(momentum))
            .when(gammaFixed, "fixGamma")
            .build(),
        x());
  }

  /** Normalises each channel along {@code axis}, with the annotation's eps and momentum. */
  public static BatchNormOp channelAxis(int axis) {
    return new BatchNormOp(axis, EPS, MOMENTUM, false);
  }

  /** This normalisation with {@code eps} added to the variance. */
  public BatchNormOp eps(double eps) {
    return new BatchNormOp(axis, eps, momentum, gammaFixed);
  }

  /** This normalisation with moving averages decaying by {@code momentum}. */
  public BatchNormOp momentum(double momentum) {
    return new BatchNormOp(axis, eps, momentum, gammaFixed);
  }

  /** This normalisation with its scale fixed at 1 (MXNet's {@code fix_gamma = True}). */
  public BatchNormOp fixGamma() {
    return new BatchNormOp(axis, eps, momentum, true);
  }

  /**
   * MXNet's {@code BatchNorm} ({@code fix_gamma} as set, false unless imported): parameters {@code
   * <node>_gamma} (starting at 1) and {@code <node>_beta}, auxiliary states {@code
   * <node>_moving_mean} (starting at 0) and {@code <node>_moving_var} (starting at 1).
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "BatchNorm",
        scope.node(),
        Attrs.of("eps", eps, "momentum", momentum, "axis", axis, "fix_gamma", gammaFixed),
        List.of("data", "gamma", "beta", "moving_mean", "moving_var"),
        List.of(
            inputs.get(0),
            scope.param(ParamRole.GAMMA),
            scope.param(ParamRole.BETA),
            scope.aux(AuxRole.MOVING_MEAN),
            scope.aux(AuxRole.MOVING_VAR)));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("BatchNorm", List.of(), BatchNormOp::batchNorm)
          .natives(
              Native.of("BatchNorm")
                  .keepsChannels(
                      attrs ->
                          (attrs.apply("axis") == null || attrs.apply("axis").trim().equals("1"))
                              && !"true".equalsIgnoreCase(attrs.apply("output_mean_var"))));

  static Mapped batchNorm(FileAttrs a) {
    a.ignore("cudnn_off");
    a.require("use_global_stats", "False", "Kiln's batch norm trains its statistics");
    a.require("output_mean_var", "False", "Kiln's batch norm has one output");
    Op op =
        new BatchNormOp(
            a.integer("axis", 1),
            a.decimal("eps", EPS),
            a.decimal("momentum", MOMENTUM),
            a.bool("fix_gamma", true));
    return new Mapped(
        op,
        List.of(
            Arg.DATA,
            Arg.param(ParamRole.GAMMA),
            Arg.param(ParamRole.BETA),
            Arg.aux(AuxRole.MOVING_MEAN),
            Arg.aux(AuxRole.MOVING_VAR)));
  }
}
