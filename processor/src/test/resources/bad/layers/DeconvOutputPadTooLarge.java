package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface DeconvOutputPadTooLarge {
  @Input(shape = {BATCH, 4, 7, 7})
  Sym x();

  @Deconv2D(filters = 2, kernel = 3, stride = 2, outputPad = {1, 2})
  Sym up(Sym x);
}
