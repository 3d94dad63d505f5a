package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.ValueWithoutConstant;

@Model
public interface CustomParamValueWithoutConstant {
  @Input(shape = {BATCH, 8})
  Sym x();

  @ValueWithoutConstant
  Sym y(Sym x);
}
