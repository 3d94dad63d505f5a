package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeCopyPastRank {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Reshape(shape = {0, 0, 0})
  Sym copied(Sym x);
}
