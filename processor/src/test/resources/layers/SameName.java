package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = SameName.Forward.class)
public @interface SameName {
  final class Forward {
    public static Sym apply(Sym x, @Param(shape = {"in"}) Sym gateWeight,
        @Param(shape = {"in"}) Sym gate_weight) {
      return x.mul(gateWeight).add(gate_weight);
    }
  }
}
