package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Test model: the hand-written GRU cell over series of any length, unrolled for the length each
 * executor is bound for, predicting a value at every step.
 */
@Model
public interface AnyStepsGru {
  @Input(shape = {BATCH, STEPS, 3})
  Sym series();

  @GruCell(hidden = 5)
  Sym states(Sym series);

  @Dense(units = 1, flatten = false)
  Sym next(Sym states);
}
