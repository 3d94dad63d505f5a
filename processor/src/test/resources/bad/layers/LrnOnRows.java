package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface LrnOnRows {
  @Input(shape = {BATCH, 64})
  Sym x();

  @Lrn(size = 5)
  Sym norm(Sym x);
}
