package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A sum of one value per example: nothing but the batch to reduce. */
@Model
public interface SumOnlyBatch {
  @Input(shape = {BATCH})
  Sym x();

  @Sum
  Sym reduced(Sym x);
}
