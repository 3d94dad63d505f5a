package bad.blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BlockWrongInput {
  @Input(shape = {BATCH, 6, 4}) Sym tokens();

  @Block(Narrowing.class)
  Sym encoder(Sym tokens);
}
