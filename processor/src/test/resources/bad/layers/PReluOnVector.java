package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PReluOnVector {
  @Input(shape = {BATCH})
  Sym x();

  @PRelu
  Sym act(Sym x);
}
