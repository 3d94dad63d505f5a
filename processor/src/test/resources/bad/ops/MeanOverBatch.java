package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A mean over the whole batch, as for a loss. */
@Model
public interface MeanOverBatch {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Mean(axes = {0, 1})
  Sym reduced(Sym x);
}
