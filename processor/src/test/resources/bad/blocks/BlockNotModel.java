package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockNotModel {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @Block(value = String.class, repeat = 2)
  Sym encoder(Sym tokens);
}
