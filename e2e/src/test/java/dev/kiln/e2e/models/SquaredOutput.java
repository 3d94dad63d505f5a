package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A model whose custom loss is the square of its one output: training drives the output to 0. */
@Model
public interface SquaredOutput {
  /** The features. */
  @Input(shape = {BATCH, 4})
  Sym x();

  /** One value per example. */
  @Dense(units = 1)
  Sym y(Sym x);

  /** {@code y²}. */
  @Squared
  Sym square(Sym y);

  /** Minimises the mean of {@code y²} over the batch. */
  @Loss
  Sym loss(Sym square);
}
