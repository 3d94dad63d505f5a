package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.List;

/**
 * The attributes of a layer normalisation ({@code @LayerNorm}), as generated code passes them to
 * {@link GraphBuilder#node}: {@code LayerNormSpec.axis(-1).eps(1e-5)}.
 *
 * @param axis the axis normalised over
 * @param eps added to the variance
 */
public record LayerNormSpec(int axis, double eps) implements LayerOp {
  /** Normalises along {@code axis} with eps 1e-5. */
  public static LayerNormSpec axis(int axis) {
    return new LayerNormSpec(axis, 1e-5);
  }

  /** This normalisation with {@code eps} added to the variance. */
  public LayerNormSpec eps(double eps) {
    return new LayerNormSpec(axis, eps);
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
}
