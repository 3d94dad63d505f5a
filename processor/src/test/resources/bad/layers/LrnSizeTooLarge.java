package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface LrnSizeTooLarge {
  @Input(shape = {BATCH, 3, 8, 8})
  Sym x();

  @Lrn(size = 5)
  Sym norm(Sym x);
}
