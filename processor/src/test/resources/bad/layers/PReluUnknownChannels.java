package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PReluUnknownChannels {
  @Input(shape = {BATCH, BATCH, 16})
  Sym x();

  @PRelu
  Sym act(Sym x);
}
