package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Heads;

/** A body traced at compile time with the layer's elements as a reshape's sizes. */
@Model
public interface HeadsNet {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Heads(heads = 2, size = 4)
  Sym y(Sym x);
}
