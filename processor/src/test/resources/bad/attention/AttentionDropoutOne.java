package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AttentionDropoutOne {
  @Input(shape = {BATCH, 10, 64}) Sym tokens();

  @MultiHeadAttention(heads = 4, dropout = 1.0)
  Sym mixed(Sym tokens);
}
