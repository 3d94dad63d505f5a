package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = UnknownDim.Forward.class)
public @interface UnknownDim {
  /** The dimension the parameter was meant to have. */
  String IN = "in";

  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {INN}) Sym scale) {
      return x.mul(scale);
    }
  }
}
