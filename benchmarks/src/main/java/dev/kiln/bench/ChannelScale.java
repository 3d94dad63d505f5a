package dev.kiln.bench;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/**
 * A learned scale per channel, starting at one: the one-operation custom layer of issue 25 ({@code
 * x.mul(scale)} with {@code scale [channels, 1, 1]} on {@code [BATCH, channels, h, w]}).
 */
@Layer(
    input = {"batch", "channels", "h", "w"},
    output = {"batch", "channels", "h", "w"},
    forward = ChannelScale.Forward.class)
public @interface ChannelScale {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** {@code x · scale}, the scale broadcast over the batch and each channel's pixels. */
    public static Sym apply(
        Sym x,
        @Param(
                shape = {"channels", "1", "1"},
                init = ParamInit.ONES)
            Sym scale) {
      return x.mul(scale);
    }
  }
}
