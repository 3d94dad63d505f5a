package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Cross-attention written with two inputs, as if the memory were both key and value. */
@Model
public interface AttentionTwoSequences {
  @Input(shape = {BATCH, 10, 64}) Sym query();

  @Input(shape = {BATCH, 12, 64}) Sym memory();

  @MultiHeadAttention(heads = 4)
  Sym read(Sym query, Sym memory);
}
