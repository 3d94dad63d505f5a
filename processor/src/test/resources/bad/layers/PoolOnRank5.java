package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PoolOnRank5 {
  @Input(shape = {BATCH, 3, 4, 4, 4})
  Sym x();

  @MaxPool(kernel = 2)
  Sym pool(Sym x);
}
