package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PoolZeroStride {
  @Input(shape = {BATCH, 1, 8, 8})
  Sym x();

  @MaxPool(kernel = 2, stride = 0)
  Sym pool(Sym x);
}
