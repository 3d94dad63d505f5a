package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: a batch norm over channels, a dense layer and a layer norm over its units. */
@Model
public interface Norms {
  @Input(shape = {BATCH, 3, 2, 2})
  Sym x();

  @BatchNorm
  Sym bn(Sym x);

  @Dense(units = 4, activation = Act.TANH)
  Sym hidden(Sym bn);

  @LayerNorm
  Sym norm(Sym hidden);
}
