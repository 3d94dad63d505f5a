package dev.kiln.runtime.graph;

/**
 * The attributes of a layer normalisation ({@code @LayerNorm}), as generated code passes them to
 * {@link GraphBuilder#layerNorm}: {@code LayerNormSpec.axis(-1).eps(1e-5)}.
 *
 * @param axis the axis normalised over
 * @param eps added to the variance
 */
public record LayerNormSpec(int axis, double eps) {
  /** Normalises along {@code axis} with eps 1e-5. */
  public static LayerNormSpec axis(int axis) {
    return new LayerNormSpec(axis, 1e-5);
  }

  /** This normalisation with {@code eps} added to the variance. */
  public LayerNormSpec eps(double eps) {
    return new LayerNormSpec(axis, eps);
  }
}
