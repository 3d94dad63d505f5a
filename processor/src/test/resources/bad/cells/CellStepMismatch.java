package bad.cells;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.ResidualCell;

@Model
public interface CellStepMismatch {
  @Input(shape = {BATCH, 10, 3})
  Sym x();

  @ResidualCell(hidden = 4)
  Sym states(Sym x);
}
