package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeEmpty {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {})
  Sym image(Sym pixels);
}
