package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Rows transposed by mistake: their batch meets the four rows of the table. */
@Model
public interface MatMulBatchAgainstRows {
  @Input(shape = {BATCH, 6})
  Sym x();

  @Input(shape = {4, 5})
  Sym table();

  @MatMul(transposeA = true)
  Sym product(Sym x, Sym table);
}
