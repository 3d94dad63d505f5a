package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * Dropout ({@code @Dropout}): MXNet's {@code Dropout} with {@code p = rate}, active only in
 * training-mode forward passes, where it zeroes values with probability {@code rate} and scales the
 * rest by {@code 1 / (1 - rate)}. Generated code writes {@code DropoutSpec.rate(0.5)}.
 *
 * @param rate the probability of dropping a value in training, in {@code [0, 1)}
 */
public record DropoutSpec(double rate) implements LayerOp {
  /** Dropout with probability {@code rate}. */
  public static DropoutSpec rate(double rate) {
    return new DropoutSpec(rate);
  }

  /**
   * @throws IllegalArgumentException naming the node if the rate is not in {@code [0, 1)}
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (!(rate >= 0 && rate < 1)) {
      throw new IllegalArgumentException(
          scope.source()
              + ": a dropout rate must be in [0, 1) (the probability of dropping a value in "
              + "training), got "
              + rate);
    }
    return scope.op("Dropout", Attrs.of("p", rate), inputs.get(0));
  }
}
