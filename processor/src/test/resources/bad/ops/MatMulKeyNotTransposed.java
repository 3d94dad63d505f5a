package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Attention scores of queries by keys, without transposing the keys. */
@Model
public interface MatMulKeyNotTransposed {
  @Input(shape = {BATCH, 5, 8})
  Sym query();

  @Input(shape = {BATCH, 5, 8})
  Sym key();

  @MatMul
  Sym scores(Sym query, Sym key);
}
