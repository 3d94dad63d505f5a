package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Sym;

/** A custom loss for {@code @Loss}: the square of each example's one value. */
@Layer(input = {"batch", "1"}, output = {"batch", "1"}, forward = Squared.Forward.class)
public @interface Squared {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** {@code x²}. */
    public static Sym apply(Sym x) {
      return x.mul(x);
    }
  }
}
