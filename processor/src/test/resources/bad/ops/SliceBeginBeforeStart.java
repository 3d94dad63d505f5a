package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Nine from the end of eight. */
@Model
public interface SliceBeginBeforeStart {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Slice(axis = 1, begin = -9)
  Sym part(Sym x);
}
