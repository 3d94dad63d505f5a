package layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** Splits each row into heads, scales each head's values, and flattens them again. */
@Layer(input = {"batch", "width"}, output = {"batch", "width"}, forward = Heads.Forward.class)
public @interface Heads {
  int heads();

  int size();

  final class Forward {
    private Forward() {}

    public static Sym apply(
        Sym x, int heads, int size, @Param(shape = {"heads", "size"}) Sym gain) {
      Sym split = x.reshape(BATCH, heads, size);
      Sym scaled = split.mul(gain).softmax(-1);
      return scaled.reshape(BATCH, 8);
    }
  }
}
