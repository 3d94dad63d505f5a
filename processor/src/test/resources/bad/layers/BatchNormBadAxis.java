package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface BatchNormBadAxis {
  @Input(shape = {BATCH, 3, 8, 8})
  Sym x();

  @BatchNorm(axis = 4)
  Sym bn(Sym x);
}
