package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface DropoutRateOne {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Dropout(rate = 1.0)
  Sym dropped(Sym x);
}
