package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.ZerosAndOnes;

@Model
public interface CustomParamZerosAndOnes {
  @Input(shape = {BATCH, 8})
  Sym x();

  @ZerosAndOnes
  Sym y(Sym x);
}
