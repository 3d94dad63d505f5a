package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: compiles, but its cell returns a state of the wrong shape. */
@Model
public interface SummingCellNet {
  @Input(shape = {BATCH, 4, 3})
  Sym x();

  @SummingCell(hidden = 2)
  Sym states(Sym x);
}
