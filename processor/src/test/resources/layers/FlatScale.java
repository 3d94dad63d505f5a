package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A per-channel scale declared as a vector: it meets the image's last axis, not its channels. */
@Layer(
    input = {"batch", "channels", "h", "w"},
    output = {"batch", "channels", "h", "w"},
    forward = FlatScale.Forward.class)
public @interface FlatScale {
  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x, @Param(shape = {"channels"}) Sym scale) {
      return x.mul(scale);
    }
  }
}
