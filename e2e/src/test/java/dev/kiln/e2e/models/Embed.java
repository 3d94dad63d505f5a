package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: an embedding of three indices per example, then a dense layer over them. */
@Model
public interface Embed {
  /** Indices in [0, 5). */
  @Input(shape = {BATCH, 3})
  Sym tokens();

  /** {@code [N, 3]} to {@code [N, 3, 4]}. */
  @Embedding(inputDim = 5, outputDim = 4)
  Sym vectors(Sym tokens);

  @Dense(units = 2, activation = Act.TANH)
  Sym score(Sym vectors);
}
