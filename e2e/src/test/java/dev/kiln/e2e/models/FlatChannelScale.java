package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/**
 * A per-channel scale declared {@code [channels]}: MXNet would line it up with the width, which
 * works only when the width happens to equal the channels. Refused when the graph is built.
 */
@Layer(input = {"n", "channels", "h", "w"}, output = {"n", "channels", "h", "w"},
    forward = FlatChannelScale.Forward.class)
public @interface FlatChannelScale {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** Scales each channel. */
    public static Sym apply(Sym x, @Param(shape = {"channels"}, init = ParamInit.ONES) Sym scale) {
      return body(x, scale);
    }

    /**
     * The body, behind a helper method: the compiler traces no body that calls one, so that the
     * graph build, the check this test is about, is what finds the mistake.
     */
    private static Sym body(Sym x, Sym scale) {
      return x.mul(scale);
    }
  }
}
