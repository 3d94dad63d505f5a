package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * Local response normalisation across channels ({@code @Lrn}) over {@code [N, C, H, W]}: MXNet's
 * {@code LRN}, {@code out = x / (k + alpha / size · Σ x²)^beta} with the sum over the {@code size}
 * channels centred on each one (those that exist). Generated code writes {@code LrnSpec.size(5)},
 * then {@code .alpha(...)}, {@code .beta(...)} and {@code .k(...)} where they differ from MXNet's
 * defaults (1e-4, 0.75 and 2).
 *
 * @param size channels in each window ({@code nsize}); odd and positive
 * @param alpha the sum's scale, which MXNet divides by {@code size}
 * @param beta the exponent
 * @param k added to the scaled sum ({@code knorm})
 */
public record LrnSpec(int size, double alpha, double beta, double k) implements LayerOp {
  /** MXNet's default {@code alpha}. */
  public static final double ALPHA = 1e-4;

  /** MXNet's default {@code beta}. */
  public static final double BETA = 0.75;

  /** MXNet's default {@code knorm}. */
  public static final double K = 2;

  /** Windows of {@code size} channels, with MXNet's default alpha, beta and k. */
  public static LrnSpec size(int size) {
    return new LrnSpec(size, ALPHA, BETA, K);
  }

  /** The sum's scale {@code alpha}. */
  public LrnSpec alpha(double alpha) {
    return new LrnSpec(size, alpha, beta, k);
  }

  /** The exponent {@code beta}. */
  public LrnSpec beta(double beta) {
    return new LrnSpec(size, alpha, beta, k);
  }

  /** The constant {@code k} added to the scaled sum. */
  public LrnSpec k(double k) {
    return new LrnSpec(size, alpha, beta, k);
  }

  /**
   * @throws IllegalArgumentException naming the node if the size is not odd and positive, alpha is
   *     negative, k not positive, or one of them infinite
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    String problem =
        size <= 0 || size % 2 == 0
            ? "size must be odd and positive (MXNet centres the window on each channel), got "
                + size
            : !(alpha >= 0 && alpha < Double.POSITIVE_INFINITY)
                ? "alpha must be 0 or more and finite, got " + alpha
                : !Double.isFinite(beta)
                    ? "beta must be finite, got " + beta
                    : !(k > 0 && k < Double.POSITIVE_INFINITY)
                        ? "k must be positive and finite, got " + k
                        : null;
    if (problem != null) {
      throw new IllegalArgumentException(scope.source() + ": " + problem);
    }
    return scope.op(
        "LRN", Attrs.of("nsize", size, "alpha", alpha, "beta", beta, "knorm", k), inputs.get(0));
  }
}
