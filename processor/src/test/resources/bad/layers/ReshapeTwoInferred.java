package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeTwoInferred {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {BATCH, 1, BATCH, 28})
  Sym image(Sym pixels);
}
