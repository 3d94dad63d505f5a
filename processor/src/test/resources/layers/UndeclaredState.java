package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell's forward method, on a layer that does not declare a state. */
@Layer(input = {"batch", "in"}, output = {"batch", "hidden"},
    forward = UndeclaredState.Step.class)
public @interface UndeclaredState {
  int hidden();

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, Sym h, @Param(shape = {"in", "hidden"}) Sym w,
        @Param(shape = {"hidden", "hidden"}) Sym u) {
      return x.dot(w).add(h.dot(u)).activation(Act.TANH);
    }
  }
}
