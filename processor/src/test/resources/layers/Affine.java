package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = Affine.Forward.class)
public @interface Affine {
  int out();

  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"in", "out"}) Sym weight,
        @Param(shape = {"out"}, zeros = true) Sym bias) {
      return x.dot(weight).add(bias);
    }
  }
}
