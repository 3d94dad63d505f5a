package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvDilatedTooLarge {
  @Input(shape = {BATCH, 1, 8, 4})
  Sym x();

  @Conv2D(filters = 2, kernel = 3, dilation = {1, 2}, pad = 0)
  Sym conv(Sym x);
}
