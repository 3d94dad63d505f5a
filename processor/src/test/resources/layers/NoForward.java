package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Sym;

@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = NoForward.Body.class)
public @interface NoForward {
  final class Body {
    static Sym apply(Sym x) {
      return x;
    }
  }
}
