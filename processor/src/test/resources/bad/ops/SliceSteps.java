package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** The last step of a sequence of any length. */
@Model
public interface SliceSteps {
  @Input(shape = {BATCH, STEPS, 4})
  Sym x();

  @Slice(axis = 1, begin = -1)
  Sym part(Sym x);
}
