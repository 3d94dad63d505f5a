package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PoolPadTooLarge {
  @Input(shape = {BATCH, 1, 8, 8})
  Sym x();

  @MaxPool(kernel = 2, pad = {0, 2})
  Sym pool(Sym x);
}
