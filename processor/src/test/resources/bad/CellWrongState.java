package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.SummingCell;

@Model
public interface CellWrongState {
  @Input(shape = {BATCH, 5, 3})
  Sym x();

  @SummingCell(hidden = 2)
  Sym states(Sym x);
}
