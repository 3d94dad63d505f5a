package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** h' = tanh(x + h·U): a cell whose step input must have the state's width. */
@Layer(input = {"batch", "hidden"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = ResidualCell.Step.class)
public @interface ResidualCell {
  int hidden();

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, Sym h, @Param(shape = {"hidden", "hidden"}) Sym u) {
      return x.add(h.dot(u)).activation(Act.TANH);
    }
  }
}
