package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Test model: dropout at rate 0 between two dense layers, the identity in both modes, so that
 * its gradient can be checked against finite differences.
 */
@Model
public interface Dropouts {
  @Input(shape = {BATCH, 6})
  Sym x();

  @Dense(units = 4, activation = Act.TANH)
  Sym hidden(Sym x);

  @Dropout(rate = 0)
  Sym kept(Sym hidden);

  @Dense(units = 3)
  Sym score(Sym kept);
}
