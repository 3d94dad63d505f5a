package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A stack of matrices by one matrix: batch_dot takes two stacks. */
@Model
public interface MatMulRanks {
  @Input(shape = {BATCH, 3, 8})
  Sym x();

  @Input(shape = {8, 5})
  Sym weights();

  @MatMul
  Sym projected(Sym x, Sym weights);
}
