package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.MultiHeadAttention;
import dev.kiln.annotations.Sym;

/**
 * One encoder block of {@link FashionVit}, written once and used four times ({@code @Block}): a
 * pre-norm transformer block over 16 tokens of width 64, multi-head self-attention and a two-layer
 * GELU feed-forward network, each added back to what it read.
 */
@Model
public interface VitBlock {
  /** 16 tokens of 64 values each. */
  @Input(shape = {BATCH, 16, 64})
  Sym tokens();

  /** Each token normalised over its 64 values. */
  @LayerNorm
  Sym norm1(Sym tokens);

  /** Every token reads every other, 4 heads of 16. */
  @MultiHeadAttention(heads = 4)
  Sym attention(Sym norm1);

  /** The residual: what the block read plus what attention found. */
  @Add
  Sym mixed(Sym tokens, Sym attention);

  @LayerNorm
  Sym norm2(Sym mixed);

  /** Each token on its own, widened to 128. */
  @Dense(units = 128, flatten = false, activation = Act.GELU)
  Sym hidden(Sym norm2);

  /** And back to 64. */
  @Dense(units = 64, flatten = false)
  Sym back(Sym hidden);

  /** The second residual: the block's output, the shape of its input. */
  @Add
  Sym out(Sym mixed, Sym back);
}
