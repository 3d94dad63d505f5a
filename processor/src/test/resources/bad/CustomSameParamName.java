package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.SameName;

@Model
public interface CustomSameParamName {
  @Input(shape = {BATCH, 8})
  Sym x();

  @SameName
  Sym y(Sym x);
}
