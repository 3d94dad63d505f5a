package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface BatchNormZeroEps {
  @Input(shape = {BATCH, 8})
  Sym x();

  @BatchNorm(eps = 0)
  Sym bn(Sym x);
}
