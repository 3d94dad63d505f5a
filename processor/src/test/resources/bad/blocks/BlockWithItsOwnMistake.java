package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockWithItsOwnMistake {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @Block(value = ZeroUnits.class, repeat = 2)
  Sym encoder(Sym tokens);
}
