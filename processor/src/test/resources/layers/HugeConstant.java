package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A scale that starts beyond what a float holds. */
@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = HugeConstant.Forward.class)
public @interface HugeConstant {
  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"in"}, init = ParamInit.CONSTANT, value = 1e39) Sym scale) {
      return x.mul(scale);
    }
  }
}
