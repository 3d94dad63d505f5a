package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeDropsBatch {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Reshape(shape = {4, 4})
  Sym square(Sym x);
}
