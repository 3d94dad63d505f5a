package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", IN}, output = {"batch", "in"}, forward = UnknownPattern.Forward.class)
public @interface UnknownPattern {
  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"in"}) Sym scale) {
      return x.mul(scale);
    }
  }
}
