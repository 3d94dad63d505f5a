package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface EmbeddingZeroInputDim {
  @Input(shape = {BATCH, 5})
  Sym tokens();

  @Embedding(inputDim = 0, outputDim = 8)
  Sym vectors(Sym tokens);
}
