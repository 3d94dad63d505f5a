package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Heads;

/** Two heads of 3 do not split a row of 8. */
@Model
public interface CustomHeadsMismatch {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Heads(heads = 2, size = 3)
  Sym y(Sym x);
}
