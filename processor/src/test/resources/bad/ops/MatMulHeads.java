package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Four heads of queries against two heads of keys. */
@Model
public interface MatMulHeads {
  @Input(shape = {BATCH, 4, 3, 8})
  Sym query();

  @Input(shape = {BATCH, 2, 3, 8})
  Sym key();

  @MatMul(transposeB = true)
  Sym scores(Sym query, Sym key);
}
