package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface FrozenFlatten {
  @Input(shape = {BATCH, 2, 3})
  Sym x();

  @Frozen
  @Flatten
  Sym flat(Sym x);

  @Dense(units = 2)
  Sym out(Sym flat);
}
