package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = BatchParam.Forward.class)
public @interface BatchParam {
  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"batch", "in"}) Sym scale) {
      return x.mul(scale);
    }
  }
}
