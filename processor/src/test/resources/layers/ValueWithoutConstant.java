package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A scale meant to start at 2, with init = ONES where CONSTANT was meant. */
@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = ValueWithoutConstant.Forward.class)
public @interface ValueWithoutConstant {
  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"in"}, init = ParamInit.ONES, value = 2) Sym scale) {
      return x.mul(scale);
    }
  }
}
