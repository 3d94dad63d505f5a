package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeSplitWithoutSizes {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {0, Reshape.SPLIT, 28})
  Sym image(Sym pixels);
}
