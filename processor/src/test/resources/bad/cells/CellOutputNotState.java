package bad.cells;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.WideCell;

@Model
public interface CellOutputNotState {
  @Input(shape = {BATCH, 10, 3})
  Sym x();

  @WideCell(hidden = 4, out = 2)
  Sym states(Sym x);
}
