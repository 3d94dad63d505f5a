package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.HugeConstant;

@Model
public interface CustomParamHugeConstant {
  @Input(shape = {BATCH, 8})
  Sym x();

  @HugeConstant
  Sym y(Sym x);
}
