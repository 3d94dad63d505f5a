package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;

/**
 * The attributes of a dense layer ({@code @Dense}), as generated code passes them to {@link
 * GraphBuilder#dense}: {@code DenseSpec.units(128).activation(Act.RELU)}. Unset attributes keep the
 * annotation's defaults.
 *
 * @param units output features ({@code num_hidden})
 * @param activation applied after the layer, or {@link Act#NONE}
 * @param noBias whether the layer has no bias
 * @param flatten whether inputs of rank above 2 are flattened first (MXNet's {@code flatten})
 */
public record DenseSpec(int units, Act activation, boolean noBias, boolean flatten) {
  /** {@code units} outputs, no activation, with a bias, flattening its input. */
  public static DenseSpec units(int units) {
    return new DenseSpec(units, Act.NONE, false, true);
  }

  /** This layer followed by {@code activation}. */
  public DenseSpec activation(Act activation) {
    return new DenseSpec(units, activation, noBias, flatten);
  }

  /** This layer without a bias. */
  public DenseSpec withoutBias() {
    return new DenseSpec(units, activation, true, flatten);
  }

  /** This layer applied to the last axis only ({@code flatten = false}) or not. */
  public DenseSpec flatten(boolean flatten) {
    return new DenseSpec(units, activation, noBias, flatten);
  }
}
