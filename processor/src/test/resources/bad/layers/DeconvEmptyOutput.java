package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface DeconvEmptyOutput {
  @Input(shape = {BATCH, 3, 1, 4})
  Sym x();

  @Deconv2D(filters = 2, kernel = 1, pad = 1)
  Sym up(Sym x);
}
