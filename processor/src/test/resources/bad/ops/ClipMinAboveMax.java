package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Bounds written the wrong way round. */
@Model
public interface ClipMinAboveMax {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Clip(min = 1, max = -1)
  Sym bounded(Sym x);
}
