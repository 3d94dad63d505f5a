package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest. */
@Model
public interface UpsampleRows {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Upsample(scale = 2)
  Sym larger(Sym pixels);
}
