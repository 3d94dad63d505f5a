package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A block with a mistake of its own. */
@Model
public interface ZeroUnits {
  @Input(shape = {BATCH, 6, 8}) Sym x();

  @Dense(units = 0, flatten = false)
  Sym none(Sym x);
}
