package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A per-feature scale of a sequence, {@code [features]} against its last axis, by name. */
@Layer(input = {"n", "steps", "features"}, output = {"n", "steps", "features"},
    forward = FeatureScale.Forward.class)
public @interface FeatureScale {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** Scales each feature. */
    public static Sym apply(Sym x,
        @Param(shape = {"features"}, init = ParamInit.ONES) Sym scale) {
      return x.mul(scale);
    }
  }
}
