package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeNotEveryBatch {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Reshape(shape = {8, BATCH})
  Sym pairs(Sym x);
}
