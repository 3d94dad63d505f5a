package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockRepeatNarrowing {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @Block(value = Narrowing.class, repeat = 3)
  Sym encoder(Sym tokens);
}
