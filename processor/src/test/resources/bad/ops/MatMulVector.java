package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Rows by a vector of weights. */
@Model
public interface MatMulVector {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Input(shape = {8})
  Sym weights();

  @MatMul
  Sym scores(Sym x, Sym weights);
}
