package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvKernelTooLarge {
  @Input(shape = {BATCH, 1, 4, 4})
  Sym x();

  @Conv2D(filters = 2, kernel = 5)
  Sym conv(Sym x);
}
