package bad.cells;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.GruCell;

@Model
public interface CellStepsInStep {
  @Input(shape = {BATCH, 5, STEPS})
  Sym x();

  @GruCell(hidden = 4)
  Sym states(Sym x);
}
