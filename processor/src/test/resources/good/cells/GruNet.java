package cells;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.GruCell;

/** A hand-written GRU cell unrolled over five steps, then a prediction at every step. */
@Model
public interface GruNet {
  @Input(shape = {BATCH, 5, 3})
  Sym x();

  @GruCell(hidden = 4)
  Sym states(Sym x);

  @Dense(units = 1, flatten = false)
  Sym next(Sym states);
}
