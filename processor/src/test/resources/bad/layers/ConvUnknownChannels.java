package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvUnknownChannels {
  @Input(shape = {BATCH, BATCH, 8, 8})
  Sym x();

  @Conv2D(filters = 4, kernel = 3)
  Sym conv(Sym x);
}
