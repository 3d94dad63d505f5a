package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface Pool1DPadTooLarge {
  @Input(shape = {BATCH, 4, 16})
  Sym signal();

  @AvgPool(kernel = 2, pad = 2)
  Sym pool(Sym signal);
}
