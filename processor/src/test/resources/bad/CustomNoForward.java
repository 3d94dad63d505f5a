package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.NoForward;

@Model
public interface CustomNoForward {
  @Input(shape = {BATCH, 8})
  Sym x();

  @NoForward
  Sym y(Sym x);
}
