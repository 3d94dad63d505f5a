package bad.cells;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.GruCell;

@Model
public interface CellOnRows {
  @Input(shape = {BATCH, 8})
  Sym x();

  @GruCell(hidden = 4)
  Sym states(Sym x);
}
