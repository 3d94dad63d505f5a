package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface BatchNormMomentum {
  @Input(shape = {BATCH, 8})
  Sym x();

  @BatchNorm(momentum = 1.5)
  Sym bn(Sym x);
}
