package blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Three copies of a block of a custom layer. */
@Model
public interface AffineStack {
  @Input(shape = {BATCH, 8}) Sym x();

  @Block(value = AffineBlock.class, repeat = 3)
  Sym stack(Sym x);
}
