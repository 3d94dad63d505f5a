package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** The classic hand-written layer: {@code y = x·W + b}, with W laid out [in, out]. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = Affine.Forward.class)
public @interface Affine {
  /** Output width. */
  int out();

  /** The forward pass, traced once when the graph is built. */
  final class Forward {
    private Forward() {}

    /** Computes {@code x·W + b}. */
    public static Sym apply(Sym x, @Param(shape = {"in", "out"}) Sym weight,
        @Param(shape = {"out"}, zeros = true) Sym bias) {
      return x.dot(weight).add(bias);
    }
  }
}
