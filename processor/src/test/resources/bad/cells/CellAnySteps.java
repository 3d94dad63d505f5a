package bad.cells;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.GruCell;

@Model
public interface CellAnySteps {
  @Input(shape = {BATCH, STEPS, 3})
  Sym x();

  @GruCell(hidden = 4)
  Sym states(Sym x);
}
