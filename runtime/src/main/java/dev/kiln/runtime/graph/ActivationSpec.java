package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * An element-wise activation ({@code @Activation}): MXNet's {@code Activation}, {@code LeakyReLU}
 * or a composition of them ({@link Activations}), its last operator named after the node. Generated
 * code writes {@code ActivationSpec.of(Act.RELU)}.
 *
 * @param activation the function
 * @param slope a leaky ReLU's slope below zero, or an ELU's scale, other than the function's own
 *     (an imported file's {@code LeakyReLU} {@code slope}); NaN for the function's own
 */
public record ActivationSpec(Act activation, double slope) implements LayerOp {
  /** The activation {@code activation}. */
  public static ActivationSpec of(Act activation) {
    return new ActivationSpec(activation, Double.NaN);
  }

  /**
   * This leaky ReLU with slope {@code slope} below zero, or this ELU scaled by {@code slope}.
   *
   * @throws IllegalArgumentException for another function, which has no slope
   */
  public ActivationSpec slope(double slope) {
    if (activation != Act.LEAKY_RELU && activation != Act.ELU) {
      throw new IllegalArgumentException(activation + " has no slope");
    }
    return new ActivationSpec(activation, slope);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return Activations.apply(scope, scope.node(), inputs.get(0), activation, slope);
  }
}
