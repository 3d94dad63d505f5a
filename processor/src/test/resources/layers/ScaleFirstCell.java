package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A cell whose forward method takes a constant where the previous state goes. */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = ScaleFirstCell.Step.class)
public @interface ScaleFirstCell {
  int hidden();

  float scale() default 1f;

  final class Step {
    private Step() {}

    public static Sym apply(Sym x, float scale, Sym h, @Param(shape = {"in", "hidden"}) Sym w) {
      return x.dot(w).add(h).activation(Act.TANH).scale(scale);
    }
  }
}
