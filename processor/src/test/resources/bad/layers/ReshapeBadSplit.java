package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeBadSplit {
  @Input(shape = {BATCH, 12})
  Sym x();

  @Reshape(shape = {0, Reshape.SPLIT, 5, BATCH})
  Sym split(Sym x);
}
