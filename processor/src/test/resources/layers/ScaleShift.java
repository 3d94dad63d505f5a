package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** x·W·scale + shift: a scale that starts at one and a shift that starts at a constant. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = ScaleShift.Forward.class)
public @interface ScaleShift {
  int out();

  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"in", "out"}, init = ParamInit.MODEL) Sym weight,
        @Param(shape = {"out"}, init = ParamInit.ONES) Sym scale,
        @Param(shape = {"out"}, init = ParamInit.CONSTANT, value = -0.25) Sym shift,
        @Param(shape = {"out"}, zeros = true, init = ParamInit.ZEROS) Sym bias) {
      return x.dot(weight).mul(scale).add(shift).add(bias);
    }
  }
}
