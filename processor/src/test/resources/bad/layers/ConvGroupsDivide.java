package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvGroupsDivide {
  @Input(shape = {BATCH, 8, 6, 6})
  Sym x();

  @Conv2D(filters = 6, kernel = 3, groups = 4)
  Sym conv(Sym x);
}
