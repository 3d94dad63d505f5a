package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvNegativePad {
  @Input(shape = {BATCH, 1, 8, 8})
  Sym x();

  @Conv2D(filters = 2, kernel = 3, pad = {1, -1})
  Sym conv(Sym x);
}
