package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A layer whose body returns a shape other than the one it declares. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = BackwardsLayer.Forward.class)
public @interface BackwardsLayer {
  /** Output width. */
  int out();

  /** The (wrong) forward pass. */
  final class Forward {
    private Forward() {}

    /** Multiplies W by x instead of x by W. */
    public static Sym apply(Sym x, @Param(shape = {"in", "out"}) Sym weight) {
      return body(x, weight);
    }

    /**
     * The body, behind a helper method: the compiler traces no body that calls one, so that the
     * graph build, the check this test is about, is what finds the mistake.
     */
    private static Sym body(Sym x, Sym weight) {
      return weight.transpose().dot(x.transpose());
    }
  }
}
