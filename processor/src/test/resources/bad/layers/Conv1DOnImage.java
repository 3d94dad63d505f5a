package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface Conv1DOnImage {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym x();

  @Conv1D(filters = 4, kernel = 3)
  Sym conv(Sym x);
}
