package dev.kiln.cli;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link RegressionJob}'s model: one dense layer with a tanh over a 2x3 input. */
@Model
public interface RegressionNet {
  @Input(shape = {BATCH, 2, 3})
  Sym x();

  @Dense(units = 4, activation = Act.TANH)
  Sym y(Sym x);
}
