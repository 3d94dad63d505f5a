package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.From;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Test model: a dense layer's output added to itself through a dropout, the sum MXNet 1.9.1's
 * oneDNN pass crashes on when it binds for inference (the differential suite's seed 86).
 */
@Model
public interface SelfSum {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Dense(units = 3)
  Sym fc(Sym x);

  @Dropout(rate = 0.3)
  Sym drop(Sym fc);

  @Add
  Sym sum(Sym drop, @From("fc") Sym again);
}
