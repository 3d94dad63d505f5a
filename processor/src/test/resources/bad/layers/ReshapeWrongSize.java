package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeWrongSize {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {BATCH, 1, 28, 27})
  Sym image(Sym pixels);

  @Conv2D(filters = 4, kernel = 3)
  Sym conv(Sym image);
}
