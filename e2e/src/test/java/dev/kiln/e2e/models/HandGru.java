package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: the hand-written GRU cell over six steps of three values. */
@Model
public interface HandGru {
  @Input(shape = {BATCH, 6, 3})
  Sym x();

  @GruCell(hidden = 5)
  Sym states(Sym x);
}
