package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A bound that is not a number. */
@Model
public interface ClipNaN {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Clip(min = Double.NaN, max = 1)
  Sym bounded(Sym x);
}
