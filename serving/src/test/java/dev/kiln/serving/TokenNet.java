package dev.kiln.serving;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link TokenIdsTest}'s model: six token ids into a table of 50 rows, then a dense layer. */
@Model
public interface TokenNet {
  @Input(shape = {BATCH, 6})
  Sym tokens();

  @Embedding(inputDim = 50, outputDim = 4)
  Sym embedded(Sym tokens);

  @Flatten
  Sym flat(Sym embedded);

  @Dense(units = 3)
  Sym logits(Sym flat);
}
