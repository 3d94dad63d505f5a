package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvZeroFilters {
  @Input(shape = {BATCH, 1, 8, 8})
  Sym x();

  @Conv2D(filters = 0, kernel = 3)
  Sym conv(Sym x);

  @Flatten
  Sym flat(Sym conv);
}
