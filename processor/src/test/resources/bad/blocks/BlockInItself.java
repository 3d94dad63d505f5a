package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockInItself {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @Block(BlockInItself.class)
  Sym again(Sym tokens);
}
