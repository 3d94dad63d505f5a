package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/**
 * {@code (x·W) * scale + shift + bias}, each parameter starting its own way: W from the model's
 * initialiser, the scale at one, the shift at a constant, the bias at zero.
 */
@Layer(input = {"n", "in"}, output = {"n", "out"}, forward = ScaleShift.Forward.class)
public @interface ScaleShift {
  /** Output width. */
  int out();

  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** Computes the layer. */
    public static Sym apply(Sym x,
        @Param(shape = {"in", "out"})                                   Sym weight,
        @Param(shape = {"out"}, init = ParamInit.ONES)                  Sym scale,
        @Param(shape = {"out"}, init = ParamInit.CONSTANT, value = 0.25) Sym shift,
        @Param(shape = {"out"}, zeros = true)                           Sym bias) {
      return x.dot(weight).mul(scale).add(shift).add(bias);
    }
  }
}
