package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.AuxRole;
import dev.kiln.names.ParamRole;
import java.util.List;

/**
 * The attributes of a batch normalisation ({@code @BatchNorm}), as generated code passes them to
 * {@link GraphBuilder#node}: {@code BatchNormSpec.channelAxis(1).eps(1e-3).momentum(0.9)}.
 *
 * @param axis the channel axis normalised over
 * @param eps added to the variance
 * @param momentum decay of the moving averages
 * @param gammaFixed whether the scale is fixed at 1 (MXNet's {@code fix_gamma}, its default, which
 *     imported symbol files may carry): gamma is then neither used nor trained
 */
public record BatchNormSpec(int axis, double eps, double momentum, boolean gammaFixed)
    implements LayerOp {
  /** Normalises each channel along {@code axis}, with eps 1e-3 and momentum 0.9. */
  public static BatchNormSpec channelAxis(int axis) {
    return new BatchNormSpec(axis, 1e-3, 0.9, false);
  }

  /** This normalisation with {@code eps} added to the variance. */
  public BatchNormSpec eps(double eps) {
    return new BatchNormSpec(axis, eps, momentum, gammaFixed);
  }

  /** This normalisation with moving averages decaying by {@code momentum}. */
  public BatchNormSpec momentum(double momentum) {
    return new BatchNormSpec(axis, eps, momentum, gammaFixed);
  }

  /** This normalisation with its scale fixed at 1 (MXNet's {@code fix_gamma = True}). */
  public BatchNormSpec fixGamma() {
    return new BatchNormSpec(axis, eps, momentum, true);
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
}
