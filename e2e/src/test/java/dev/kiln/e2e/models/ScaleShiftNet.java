package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: a custom layer whose parameters start as their @Param(init) says. */
@Model
public interface ScaleShiftNet {
  @Input(shape = {BATCH, 4})
  Sym x();

  @ScaleShift(out = 3)
  Sym y(Sym x);
}
