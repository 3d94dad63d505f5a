package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeUnknownCode {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {0, -5})
  Sym image(Sym pixels);
}
