package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.UnknownDim;

@Model
public interface CustomUnknownDim {
  @Input(shape = {BATCH, 8})
  Sym x();

  @UnknownDim
  Sym y(Sym x);
}
