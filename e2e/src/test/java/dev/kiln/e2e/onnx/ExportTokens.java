package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Token ids embedded, then a regression head: exported as its prediction. */
@Model
public interface ExportTokens {
  /** Five token ids per example (as floats). */
  @Input(shape = {BATCH, 5})
  Sym tokens();

  /** Four values per token. */
  @Embedding(inputDim = 10, outputDim = 4)
  Sym embedded(Sym tokens);

  /** Two values per example. */
  @Dense(units = 2)
  Sym predicted(Sym embedded);

  /** The loss head. */
  @L2Loss
  Sym fit(Sym predicted);
}
