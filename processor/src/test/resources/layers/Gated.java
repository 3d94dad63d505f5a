package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** x·W gated by a learned per-feature sigmoid: parameters named in camel case. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = Gated.Forward.class)
public @interface Gated {
  int out();

  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"in", "out"}) Sym weight,
        @Param(shape = {"out"}, zeros = true) Sym gateWeight) {
      return x.dot(weight).mul(gateWeight.activation(Act.SIGMOID));
    }
  }
}
