package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A step that returns the input's width, [batch, in], instead of a new state [batch, hidden]. */
@Layer(
    input = {"batch", "in"},
    state = {"batch", "hidden"},
    output = {"batch", "hidden"},
    forward = SummingCell.Step.class)
public @interface SummingCell {
  int hidden();

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, Sym h, @Param(shape = {"hidden", "in"}) Sym w) {
      return x.add(h.dot(w));
    }
  }
}
