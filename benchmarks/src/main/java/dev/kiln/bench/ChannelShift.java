package dev.kiln.bench;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/** A learned shift per channel, starting at zero ({@code x.add(shift)}): a bias the custom way. */
@Layer(
    input = {"batch", "channels", "h", "w"},
    output = {"batch", "channels", "h", "w"},
    forward = ChannelShift.Forward.class)
public @interface ChannelShift {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** {@code x.add(shift)}, broadcast over the batch and each channel's pixels. */
    public static Sym apply(
        Sym x,
        @Param(
                shape = {"channels", "1", "1"},
                init = ParamInit.ZEROS)
            Sym shift) {
      return x.add(shift);
    }
  }
}
