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
 */
public record ActivationSpec(Act activation) implements LayerOp {
  /** The activation {@code activation}. */
  public static ActivationSpec of(Act activation) {
    return new ActivationSpec(activation);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return Activations.apply(scope, scope.node(), inputs.get(0), activation);
  }
}
