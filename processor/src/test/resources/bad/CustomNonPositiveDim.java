package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Affine;

@Model
public interface CustomNonPositiveDim {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Affine(out = 0)
  Sym y(Sym x);
}
