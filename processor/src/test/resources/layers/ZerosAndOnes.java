package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A scale declared to start at zero and at one. */
@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = ZerosAndOnes.Forward.class)
public @interface ZerosAndOnes {
  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"in"}, zeros = true, init = ParamInit.ONES) Sym scale) {
      return x.mul(scale);
    }
  }
}
