package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvOnRows {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Conv2D(filters = 6, kernel = 5)
  Sym conv(Sym pixels);

  @MaxPool(kernel = 2)
  Sym pool(Sym conv);
}
