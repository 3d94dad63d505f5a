package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface LayerNormNegativeEps {
  @Input(shape = {BATCH, 8})
  Sym x();

  @LayerNorm(eps = -1e-5)
  Sym norm(Sym x);
}
