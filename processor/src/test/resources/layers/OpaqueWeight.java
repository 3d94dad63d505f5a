package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/**
 * VectorWeight's mistake (W declared a vector) behind a helper method: the compiler traces no body
 * that calls one, so only the graph build can tell.
 */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = OpaqueWeight.Forward.class)
public @interface OpaqueWeight {
  int out();

  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"in"}) Sym weight,
        @Param(shape = {"out"}, zeros = true) Sym bias) {
      return affine(x, weight, bias);
    }

    private static Sym affine(Sym x, Sym w, Sym b) {
      return x.dot(w).add(b);
    }
  }
}
