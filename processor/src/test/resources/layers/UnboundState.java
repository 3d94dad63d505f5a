package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell whose state is shaped by 'memory', which nothing binds. */
@Layer(input = {"batch", "in"}, state = {"batch", "memory"}, output = {"batch", "memory"},
    forward = UnboundState.Step.class)
public @interface UnboundState {
  int hidden();

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, Sym h, @Param(shape = {"in", "hidden"}) Sym w) {
      return x.dot(w).add(h).activation(Act.TANH);
    }
  }
}
