package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** An axis the input does not have. */
@Model
public interface SliceAxisOutOfRange {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Slice(axis = 2, begin = 1)
  Sym part(Sym x);
}
