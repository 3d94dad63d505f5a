package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: MXNet's fused GRU of the same size as {@link HandGru}'s cell. */
@Model
public interface FusedGru {
  @Input(shape = {BATCH, 6, 3})
  Sym x();

  @Gru(units = 5)
  Sym states(Sym x);
}
