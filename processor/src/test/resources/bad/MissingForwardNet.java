package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.MissingForward;

@Model
public interface MissingForwardNet {
  @Input(shape = {BATCH, 8})
  Sym x();

  @MissingForward
  Sym y(Sym x);
}
