package dev.kiln.runtime.graph;

/**
 * The attributes of a batch normalisation ({@code @BatchNorm}), as generated code passes them to
 * {@link GraphBuilder#batchNorm}: {@code BatchNormSpec.channelAxis(1).eps(1e-3).momentum(0.9)}.
 *
 * @param axis the channel axis normalised over
 * @param eps added to the variance
 * @param momentum decay of the moving averages
 */
public record BatchNormSpec(int axis, double eps, double momentum) {
  /** Normalises each channel along {@code axis}, with eps 1e-3 and momentum 0.9. */
  public static BatchNormSpec channelAxis(int axis) {
    return new BatchNormSpec(axis, 1e-3, 0.9);
  }

  /** This normalisation with {@code eps} added to the variance. */
  public BatchNormSpec eps(double eps) {
    return new BatchNormSpec(axis, eps, momentum);
  }

  /** This normalisation with moving averages decaying by {@code momentum}. */
  public BatchNormSpec momentum(double momentum) {
    return new BatchNormSpec(axis, eps, momentum);
  }
}
