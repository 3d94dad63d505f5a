package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A per-channel scale of an image, {@code [channels, 1, 1]}: one factor per channel. */
@Layer(input = {"n", "channels", "h", "w"}, output = {"n", "channels", "h", "w"},
    forward = ChannelScale.Forward.class)
public @interface ChannelScale {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** Scales each channel. */
    public static Sym apply(Sym x,
        @Param(shape = {"channels", "1", "1"}, init = ParamInit.ONES) Sym scale) {
      return x.mul(scale);
    }
  }
}
