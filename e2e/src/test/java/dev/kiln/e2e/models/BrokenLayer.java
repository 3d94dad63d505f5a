package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A layer whose body uses the wrong product: only the graph build can tell. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = BrokenLayer.Forward.class)
public @interface BrokenLayer {
  /** Output width. */
  int out();

  /** The (wrong) forward pass. */
  final class Forward {
    private Forward() {}

    /** Multiplies element-wise where a matrix product was meant. */
    public static Sym apply(Sym x, @Param(shape = {"in", "out"}) Sym weight) {
      return body(x, weight);
    }

    /**
     * The body, behind a helper method: the compiler traces no body that calls one, so that the
     * graph build, the check this test is about, is what finds the mistake.
     */
    private static Sym body(Sym x, Sym weight) {
      return x.mul(weight);
    }
  }
}
