package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface PositionsOnImages {
  @Input(shape = {BATCH, 64, 4, 4}) Sym patches();

  @PositionalEmbedding(steps = 16)
  Sym placed(Sym patches);
}
