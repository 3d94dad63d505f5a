package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** x·W with W declared [out, in], as PyTorch stores it: the inner sizes do not meet. */
@Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = SwappedDot.Forward.class)
public @interface SwappedDot {
  int out();

  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"out", "in"}) Sym weight) {
      Sym y = x.dot(weight);
      return y;
    }
  }
}
