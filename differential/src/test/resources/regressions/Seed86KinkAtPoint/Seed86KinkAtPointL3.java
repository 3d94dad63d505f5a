package regression;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A custom layer drawn for Seed86KinkAtPoint (seed 86). */
@Layer(input = {"batch", "t", "features"}, output = {"batch", "t", "features"}, forward = Seed86KinkAtPointL3.Forward.class)
public @interface Seed86KinkAtPointL3 {
  /** Dimension u0. */
  int u0() default 3;

  /** The forward pass, traced once when the graph is built. */
  final class Forward {
    private Forward() {}

    /** Computes the layer. */
    public static Sym apply(Sym x, @Param(shape = {"features", "u0"}) Sym p0, @Param(shape = {"u0", "features"}) Sym p1, @Param(shape = {"features", "features"}) Sym p2) {
      return x.dot(p0).activation(Act.RELU).dot(p1).mul(x.dot(p2).activation(Act.SIGMOID));
    }
  }
}
