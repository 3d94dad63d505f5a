package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Test model: a stateful GRU over a series of any length, predicting the next value at every
 * step; its state carries from one call to the next until reset.
 */
@Model
public interface SineRnn {
  @Input(shape = {BATCH, STEPS, 1})
  Sym series();

  @Gru(units = 16, stateful = true)
  Sym states(Sym series);

  @Dense(units = 1, flatten = false)
  Sym next(Sym states);
}
