package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PoolPairOnRank3 {
  @Input(shape = {BATCH, 3, 8})
  Sym x();

  @AvgPool(kernel = {2, 2})
  Sym pool(Sym x);
}
