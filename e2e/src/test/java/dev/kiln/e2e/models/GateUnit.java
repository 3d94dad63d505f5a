package dev.kiln.e2e.models;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/**
 * {@code x·inputWeight} gated per unit by {@code sigmoid(gateWeight)}: parameters whose Java
 * names are mixed case, so their MXNet names are snake case ({@code gated_input_weight}).
 */
@Layer(input = {"n", "in"}, output = {"n", "units"}, forward = GateUnit.Forward.class)
public @interface GateUnit {
  /** Output width. */
  int units();

  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** The gated product. */
    public static Sym apply(Sym x, @Param(shape = {"in", "units"}) Sym inputWeight,
        @Param(shape = {"units"}) Sym gateWeight) {
      return x.dot(inputWeight).mul(gateWeight.activation(Act.SIGMOID));
    }
  }
}
