package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A block whose output is narrower than its input. */
@Model
public interface Narrowing {
  @Input(shape = {BATCH, 6, 8}) Sym x();

  @Dense(units = 4, flatten = false)
  Sym narrow(Sym x);
}
