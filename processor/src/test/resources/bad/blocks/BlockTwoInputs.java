package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockTwoInputs {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @Block(TwoInputs.class)
  Sym encoder(Sym tokens);
}
