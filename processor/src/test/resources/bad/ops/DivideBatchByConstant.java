package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Rows divided by a table of four rows: it works for a batch of four only. */
@Model
public interface DivideBatchByConstant {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Input(shape = {4, 8})
  Sym scale();

  @Divide
  Sym scaled(Sym x, Sym scale);
}
