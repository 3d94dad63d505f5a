package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A block that reads two tensors. */
@Model
public interface TwoInputs {
  @Input(shape = {BATCH, 6, 8}) Sym a();

  @Input(shape = {BATCH, 6, 8}) Sym b();

  @Add
  Sym sum(Sym a, Sym b);
}
