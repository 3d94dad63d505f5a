package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** Meant as x·W + b, but W is declared a vector: only the graph build can tell. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = VectorWeight.Forward.class)
public @interface VectorWeight {
  /** Output width. */
  int out();

  /** The forward pass, with the weight's shape written wrong. */
  final class Forward {
    private Forward() {}

    /** x·W + b, where W should have been {@code {"in", "out"}}. */
    public static Sym apply(Sym x, @Param(shape = {"in"}) Sym weight,
        @Param(shape = {"out"}, zeros = true) Sym bias) {
      return body(x, weight, bias);
    }

    /**
     * The body, behind a helper method: the compiler traces no body that calls one, so that the
     * graph build, the check this test is about, is what finds the mistake.
     */
    private static Sym body(Sym x, Sym weight, Sym bias) {
      return x.dot(weight).add(bias);
    }
  }
}
