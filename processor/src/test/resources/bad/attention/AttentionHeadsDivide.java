package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AttentionHeadsDivide {
  @Input(shape = {BATCH, 10, 64}) Sym tokens();

  @MultiHeadAttention(heads = 5)
  Sym mixed(Sym tokens);
}
