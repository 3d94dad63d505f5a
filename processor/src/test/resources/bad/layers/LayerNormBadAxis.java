package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface LayerNormBadAxis {
  @Input(shape = {BATCH, 8})
  Sym x();

  @LayerNorm(axis = -3)
  Sym norm(Sym x);
}
