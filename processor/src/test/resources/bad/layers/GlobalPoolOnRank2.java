package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface GlobalPoolOnRank2 {
  @Input(shape = {BATCH, 8})
  Sym x();

  @GlobalAvgPool
  Sym gap(Sym x);
}
