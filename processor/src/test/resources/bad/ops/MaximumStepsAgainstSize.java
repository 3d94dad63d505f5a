package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** A sequence of any length against one of six steps. */
@Model
public interface MaximumStepsAgainstSize {
  @Input(shape = {BATCH, STEPS, 4})
  Sym x();

  @Input(shape = {BATCH, 6, 4})
  Sym floor();

  @Maximum
  Sym clipped(Sym x, Sym floor);
}
