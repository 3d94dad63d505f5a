package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockTwoParameters {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @Block(Narrowing.class)
  Sym encoder(Sym tokens, @From("tokens") Sym again);
}
