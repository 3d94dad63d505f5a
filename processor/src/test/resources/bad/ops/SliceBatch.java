package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** The first four examples of a batch. */
@Model
public interface SliceBatch {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Slice(axis = 0, end = 4)
  Sym part(Sym x);
}
