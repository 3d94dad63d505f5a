package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.BadToken;

@Model
public interface CustomBadToken {
  @Input(shape = {BATCH, 8})
  Sym x();

  @BadToken
  Sym y(Sym x);
}
