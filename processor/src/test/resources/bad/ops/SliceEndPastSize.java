package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** An end past the axis. */
@Model
public interface SliceEndPastSize {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Slice(axis = 1, begin = 2, end = 9)
  Sym part(Sym x);
}
