package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: compiles (the contract holds, with a note), but its layer's weight is a vector. */
@Model
public interface VectorWeightNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Dense(units = 32)
  Sym hidden(Sym pixels);

  @VectorWeight(out = 10)
  Sym scores(Sym hidden);
}
