package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A per-channel scale whose @Param misspells the dimension it is shaped by. */
@Layer(
    input = {"batch", "channels", "h", "w"},
    output = {"batch", "channels", "h", "w"},
    forward = MisspeltDim.Forward.class)
public @interface MisspeltDim {
  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"chanels", "1", "1"}) Sym scale) {
      return x.mul(scale);
    }
  }
}
