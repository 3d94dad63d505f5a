package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest. */
@Model
public interface UpsampleZeroScale {
  @Input(shape = {BATCH, 8, 4, 4})
  Sym x();

  @Upsample(scale = 0)
  Sym larger(Sym x);
}
