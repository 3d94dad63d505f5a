package regression;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A custom layer drawn for Seed86KinkAtPoint (seed 86). */
@Layer(input = {"n", "steps", "width"}, output = {"n", "steps", "u0"}, forward = Seed86KinkAtPointL1.Forward.class)
public @interface Seed86KinkAtPointL1 {
  /** Dimension u0. */
  int u0();

  /** The forward pass, traced once when the graph is built. */
  final class Forward {
    private Forward() {}

    /** Computes the layer. */
    public static Sym apply(Sym x, @Param(shape = {"width"}) Sym p0, @Param(shape = {"width", "u0"}) Sym p1) {
      return x.activation(Act.TANH).add(x).mul(p0.activation(Act.SIGMOID)).dot(p1);
    }
  }
}
