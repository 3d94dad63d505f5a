package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/**
 * A layer whose parameters, after the node's name, spell members the generated classes have
 * anyway: node hash's code is hashCode, node auxiliary's states auxiliaryStates.
 */
@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = Named.Forward.class)
public @interface Named {
  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** x · code + states - string + bGates, element-wise. */
    public static Sym apply(Sym x, @Param(shape = {"in"}) Sym code,
        @Param(shape = {"in"}, zeros = true) Sym states,
        @Param(shape = {"in"}, zeros = true) Sym string,
        @Param(shape = {"in"}, zeros = true) Sym bGates) {
      return x.mul(code).add(states).sub(string).add(bGates);
    }
  }
}
