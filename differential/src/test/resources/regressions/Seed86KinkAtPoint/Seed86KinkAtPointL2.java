package regression;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A custom layer drawn for Seed86KinkAtPoint (seed 86). */
@Layer(input = {"batch", "steps", "width"}, output = {"batch", "steps", "16"}, forward = Seed86KinkAtPointL2.Forward.class)
public @interface Seed86KinkAtPointL2 {
  /** A constant factor. */
  float scale() default 0.3f;

  /** The forward pass, traced once when the graph is built. */
  final class Forward {
    private Forward() {}

    /** Computes the layer. */
    public static Sym apply(Sym x, @Param(shape = {"width"}) Sym p0, @Param(shape = {"width", "width"}) Sym p1, @Param(shape = {"width", "16"}) Sym p2, float scale) {
      return x.add(p0).scale(scale).mul(x.dot(p1).activation(Act.SIGMOID)).dot(p2);
    }
  }
}
