package bad.cells;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.GruCell;

@Model
public interface CellJoinedSteps {
  @Input(shape = {BATCH, STEPS, 3})
  Sym first();

  @Input(shape = {BATCH, STEPS, 3})
  Sym second();

  @Concat(axis = 1)
  Sym both(Sym first, Sym second);

  @GruCell(hidden = 4)
  Sym states(Sym both);
}
