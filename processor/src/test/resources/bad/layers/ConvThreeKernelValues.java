package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ConvThreeKernelValues {
  @Input(shape = {BATCH, 1, 8, 8})
  Sym x();

  @Conv2D(filters = 2, kernel = {3, 3, 3})
  Sym conv(Sym x);
}
