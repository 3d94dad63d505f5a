package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Sym;

/** Compiled to a library whose forward class then goes missing. */
@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = Gone.Forward.class)
public @interface Gone {
  final class Forward {
    public static Sym apply(Sym x) {
      return x;
    }
  }
}
