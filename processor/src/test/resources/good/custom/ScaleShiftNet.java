package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.ScaleShift;

/** A custom layer whose parameters start as their @Param(init) says. */
@Model
public interface ScaleShiftNet {
  @Input(shape = {BATCH, 5})
  Sym x();

  @ScaleShift(out = 3)
  Sym y(Sym x);
}
