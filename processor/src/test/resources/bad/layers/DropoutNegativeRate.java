package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface DropoutNegativeRate {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Dropout(rate = -0.1)
  Sym dropped(Sym x);
}
