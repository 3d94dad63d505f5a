package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: compiles (the contract holds) but its cell's body is wrong. */
@Model
public interface BrokenCellNet {
  @Input(shape = {BATCH, 4, 3})
  Sym x();

  @BrokenCell(hidden = 2)
  Sym states(Sym x);
}
