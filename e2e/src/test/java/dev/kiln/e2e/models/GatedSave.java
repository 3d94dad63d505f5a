package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: a custom layer with mixed-case parameter names, saved and loaded. */
@Model
public interface GatedSave {
  @Input(shape = {BATCH, 5})
  Sym x();

  @GateUnit(units = 3)
  Sym gated(Sym x);
}
