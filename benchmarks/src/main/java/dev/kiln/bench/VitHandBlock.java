package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * {@code VitBlock} with its attention written by hand: four {@link AttentionHead} custom layers
 * added to the block's input by one {@code @Add} in place of {@code @MultiHeadAttention(heads =
 * 4)}; the rest as in {@code VitBlock}.
 */
@Model
public interface VitHandBlock {
  @Input(shape = {BATCH, 16, 64})
  Sym tokens();

  @LayerNorm
  Sym norm1(Sym tokens);

  @AttentionHead(size = 16)
  Sym head1(Sym norm1);

  @AttentionHead(size = 16)
  Sym head2(Sym norm1);

  @AttentionHead(size = 16)
  Sym head3(Sym norm1);

  @AttentionHead(size = 16)
  Sym head4(Sym norm1);

  @Add
  Sym mixed(Sym tokens, Sym head1, Sym head2, Sym head3, Sym head4);

  @LayerNorm
  Sym norm2(Sym mixed);

  @Dense(units = 128, flatten = false, activation = Act.GELU)
  Sym hidden(Sym norm2);

  @Dense(units = 64, flatten = false)
  Sym back(Sym hidden);

  @Add
  Sym out(Sym mixed, Sym back);
}
