package dev.kiln.e2e.models;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/**
 * A gated layer using more of the symbolic API: {@code tanh(x·W) * sigmoid(g) * scale}, with a
 * per-feature gate {@code g} and a constant from the annotation.
 */
@Layer(input = {"n", "features"}, output = {"n", "units"}, forward = ScaledTanh.Forward.class)
public @interface ScaledTanh {
  /** Output width. */
  int units();

  /** A constant factor, passed to the forward method by name. */
  float scale() default 2f;

  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** Computes the gated activation. */
    public static Sym apply(Sym x, @Param(shape = {"features", "units"}) Sym weight,
        @Param(shape = {"units"}) Sym gate, float scale) {
      return x.dot(weight).activation(Act.TANH).mul(gate.activation(Act.SIGMOID)).scale(scale);
    }
  }
}
