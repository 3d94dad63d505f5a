package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A permutation of a rank-3 sequence that is not one. */
@Model
public interface TransposeAxisOutOfRange {
  @Input(shape = {BATCH, 5, 8})
  Sym sequence();

  @Transpose(axes = {0, 3, 1})
  Sym swapped(Sym sequence);
}
