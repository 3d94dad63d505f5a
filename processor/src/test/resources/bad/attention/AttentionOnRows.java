package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AttentionOnRows {
  @Input(shape = {BATCH, 64}) Sym features();

  @MultiHeadAttention(heads = 4)
  Sym mixed(Sym features);
}
