package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface PositionsTooFew {
  @Input(shape = {BATCH, 20, 64}) Sym tokens();

  @PositionalEmbedding(steps = 16)
  Sym placed(Sym tokens);
}
