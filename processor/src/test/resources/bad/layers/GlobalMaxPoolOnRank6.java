package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface GlobalMaxPoolOnRank6 {
  @Input(shape = {BATCH, 2, 3, 3, 3, 3})
  Sym x();

  @GlobalMaxPool
  Sym peak(Sym x);
}
