package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PoolEmptyWindow {
  @Input(shape = {BATCH, 2, 5})
  Sym x();

  @MaxPool(kernel = 2, stride = 3, pad = 1, convention = PoolConvention.FULL)
  Sym pool(Sym x);
}
