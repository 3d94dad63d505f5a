package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Indices 5 to 5: nothing. */
@Model
public interface SliceEmpty {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Slice(axis = -1, begin = 5, end = -3)
  Sym part(Sym x);
}
