package blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** One pre-norm transformer encoder block: attention, then a feed-forward layer, each residual. */
@Model
public interface EncoderBlock {
  @Input(shape = {BATCH, 6, 8}) Sym x();

  @LayerNorm
  Sym norm1(Sym x);

  @MultiHeadAttention(heads = 2)
  Sym attention(Sym norm1);

  @Add
  Sym mixed(Sym x, Sym attention);

  @LayerNorm
  Sym norm2(Sym mixed);

  @Dense(units = 16, flatten = false, activation = Act.GELU)
  Sym hidden(Sym norm2);

  @Dense(units = 8, flatten = false)
  Sym back(Sym hidden);

  @Add
  Sym out(Sym mixed, Sym back);
}
