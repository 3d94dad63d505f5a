package regression;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A custom layer drawn for Seed519BatchNormNegativeAxis (seed 519). */
@Layer(input = {"batch", "width"}, output = {"batch", "width"}, forward = Seed519BatchNormNegativeAxisL1.Forward.class)
public @interface Seed519BatchNormNegativeAxisL1 {
  /** The forward pass, traced once when the graph is built. */
  final class Forward {
    private Forward() {}

    /** Computes the layer. */
    public static Sym apply(Sym x) {
      return x.activation(Act.SOFTRELU).add(x);
    }
  }
}
