package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell whose forward method forgot the previous state. */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = StatelessStep.Step.class)
public @interface StatelessStep {
  int hidden();

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, @Param(shape = {"in", "hidden"}) Sym w) {
      return x.dot(w).activation(Act.TANH);
    }
  }
}
