package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Seven axes, one more than MXNet transposes. */
@Model
public interface TransposeRankSeven {
  @Input(shape = {BATCH, 2, 2, 2, 2, 2, 2})
  Sym x();

  @Transpose
  Sym reversed(Sym x);
}
