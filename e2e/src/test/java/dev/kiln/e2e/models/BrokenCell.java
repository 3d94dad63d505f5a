package dev.kiln.e2e.models;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell whose body multiplies the state by the input weight: only the graph build can tell. */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = BrokenCell.Step.class)
public @interface BrokenCell {
  /** The state's size. */
  int hidden();

  /** The (wrong) step. */
  final class Step {
    private Step() {}

    /** Reads the state through the input's weight, {@code [in, hidden]}. */
    public static Sym apply(Sym x, Sym h, @Param(shape = {"in", "hidden"}) Sym w) {
      return body(x, h, w);
    }

    /**
     * The body, behind a helper method: the compiler traces no body that calls one, so that the
     * graph build, the check this test is about, is what finds the mistake.
     */
    private static Sym body(Sym x, Sym h, Sym w) {
      return x.dot(w).add(h.dot(w)).activation(Act.TANH);
    }
  }
}
