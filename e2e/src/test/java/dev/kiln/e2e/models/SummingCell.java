package dev.kiln.e2e.models;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell whose step returns a new state of the wrong width: only the graph build can tell. */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = SummingCell.Step.class)
public @interface SummingCell {
  /** The state's size. */
  int hidden();

  /** The (wrong) step. */
  final class Step {
    private Step() {}

    /** Returns the projected input, {@code [batch, in]}, instead of a new state. */
    public static Sym apply(Sym x, Sym h, @Param(shape = {"hidden", "in"}) Sym w) {
      return body(x, h, w);
    }

    /**
     * The body, behind a helper method: the compiler traces no body that calls one, so that the
     * graph build, the check this test is about, is what finds the mistake.
     */
    private static Sym body(Sym x, Sym h, Sym w) {
      return x.add(h.dot(w));
    }
  }
}
