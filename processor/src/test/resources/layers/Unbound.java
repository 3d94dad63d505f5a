package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", "in"}, output = {"batch", "width"}, forward = Unbound.Forward.class)
public @interface Unbound {
  int out();

  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"in", "out"}) Sym weight) {
      return x.dot(weight);
    }
  }
}
