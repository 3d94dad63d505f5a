package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface DeconvDilatedOneFilter {
  @Input(shape = {BATCH, 16, 7, 7})
  Sym x();

  @Deconv2D(filters = 1, kernel = 3, stride = 2, dilation = 2)
  Sym up(Sym x);
}
