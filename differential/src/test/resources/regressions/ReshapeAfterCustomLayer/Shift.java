package regression;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** {@code x + b}: a broadcast add, whose parameter MXNet cannot infer from {@code x}. */
@Layer(input = {"batch", "width"}, output = {"batch", "width"}, forward = Shift.Forward.class)
public @interface Shift {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** Computes {@code x + b}. */
    public static Sym apply(Sym x, @Param(shape = {"width"}) Sym b) {
      return x.add(b);
    }
  }
}
