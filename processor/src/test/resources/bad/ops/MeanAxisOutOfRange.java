package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** An axis the input does not have. */
@Model
public interface MeanAxisOutOfRange {
  @Input(shape = {BATCH, 4, 6})
  Sym x();

  @Mean(axes = 3)
  Sym reduced(Sym x);
}
