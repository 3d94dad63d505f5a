package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A covariance over the examples of a batch: the product sums over the batch. */
@Model
public interface MatMulOverBatch {
  @Input(shape = {BATCH, 8})
  Sym x();

  @MatMul(transposeA = true)
  Sym covariance(Sym x, @From("x") Sym again);
}
