package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell whose output pattern is not its state's. */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "out"},
    forward = WideCell.Step.class)
public @interface WideCell {
  int hidden();

  int out();

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, Sym h, @Param(shape = {"in", "hidden"}) Sym w,
        @Param(shape = {"hidden", "hidden"}) Sym u) {
      return x.dot(w).add(h.dot(u)).activation(Act.TANH);
    }
  }
}
