package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: one dense layer with an activation over a rank-3 input (flattened by MXNet). */
@Model
public interface DenseTanh {
  @Input(shape = {BATCH, 2, 3})
  Sym x();

  @Dense(units = 4, activation = Act.TANH)
  Sym y(Sym x);
}
