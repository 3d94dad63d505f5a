package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A small regression: three features to two targets through a hidden layer, under @L2Loss. */
@Model
public interface LinearFit {
  /** The features. */
  @Input(shape = {BATCH, 3})
  Sym x();

  /** A hidden layer. */
  @Dense(units = 16, activation = Act.TANH)
  Sym hidden(Sym x);

  /** The two predicted values. */
  @Dense(units = 2)
  Sym y(Sym hidden);

  /** Trained against the targets under half the squared error. */
  @L2Loss
  Sym fit(Sym y);
}
