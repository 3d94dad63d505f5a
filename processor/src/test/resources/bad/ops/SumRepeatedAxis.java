package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** One axis written twice. */
@Model
public interface SumRepeatedAxis {
  @Input(shape = {BATCH, 4, 6})
  Sym x();

  @Sum(axes = {1, -2})
  Sym reduced(Sym x);
}
