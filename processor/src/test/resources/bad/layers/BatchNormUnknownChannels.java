package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface BatchNormUnknownChannels {
  @Input(shape = {BATCH, 8, BATCH})
  Sym x();

  @BatchNorm(axis = -1)
  Sym bn(Sym x);
}
