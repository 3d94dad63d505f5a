package dev.kiln.bench;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A learned divisor per channel, starting at one ({@code x.div(divisor)}). */
@Layer(
    input = {"batch", "channels", "h", "w"},
    output = {"batch", "channels", "h", "w"},
    forward = ChannelDivide.Forward.class)
public @interface ChannelDivide {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** {@code x.div(divisor)}, broadcast over the batch and each channel's pixels. */
    public static Sym apply(
        Sym x,
        @Param(
                shape = {"channels", "1", "1"},
                init = ParamInit.ONES)
            Sym divisor) {
      return x.div(divisor);
    }
  }
}
