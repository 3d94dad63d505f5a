package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface ReshapeMergePastRank {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Reshape(shape = {0, Reshape.MERGE})
  Sym merged(Sym x);
}
