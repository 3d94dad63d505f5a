package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: the hand-written GRU cell predicting a series' next value at every step. */
@Model
public interface CellSine {
  @Input(shape = {BATCH, 8, 1})
  Sym series();

  @GruCell(hidden = 8)
  Sym states(Sym series);

  @Dense(units = 1, flatten = false)
  Sym next(Sym states);
}
