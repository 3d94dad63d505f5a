package regression;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A custom layer drawn for Seed25SaturatedSoftmax (seed 25). */
@Layer(
    input = {"batch", "width"},
    output = {"batch", "u1"},
    forward = Seed25AddDotDot.Forward.class)
public @interface Seed25AddDotDot {
  /** Dimension u0. */
  int u0();

  /** Dimension u1. */
  int u1();

  /** The forward pass, traced once when the graph is built. */
  final class Forward {
    private Forward() {}

    /** Computes the layer. */
    public static Sym apply(
        Sym x,
        @Param(shape = {"width"}, zeros = true) Sym p0,
        @Param(shape = {"u0", "width"}) Sym p1,
        @Param(shape = {"u0", "u1"}) Sym p2) {
      return x.add(p0).dot(p1.transpose()).dot(p2);
    }
  }
}
