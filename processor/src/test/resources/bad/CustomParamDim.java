package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.MisspeltDim;

@Model
public interface CustomParamDim {
  @Input(shape = {BATCH, 16, 24, 24})
  Sym x();

  @MisspeltDim
  Sym y(Sym x);
}
