package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface LrnZeroSize {
  @Input(shape = {BATCH, 8, 4, 4})
  Sym x();

  @Lrn(size = 0)
  Sym norm(Sym x);
}
