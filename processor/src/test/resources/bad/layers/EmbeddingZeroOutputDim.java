package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface EmbeddingZeroOutputDim {
  @Input(shape = {BATCH, 5})
  Sym tokens();

  @Embedding(inputDim = 100, outputDim = -2)
  Sym vectors(Sym tokens);
}
