package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Block;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Mean;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.PositionalEmbedding;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Transpose;

/**
 * The sample's {@code FashionVit} with its attention written by hand ({@link VitHandBlock}): what
 * the benchmark compares {@code @MultiHeadAttention} with.
 */
@Model(classifier = true)
public interface VitHand {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 64, kernel = 7, stride = 7)
  Sym patches(Sym image);

  @Reshape(shape = {BATCH, 64, 16})
  Sym grid(Sym patches);

  @Transpose(axes = {0, 2, 1})
  Sym tokens(Sym grid);

  @PositionalEmbedding(steps = 16)
  Sym placed(Sym tokens);

  @Block(value = VitHandBlock.class, repeat = 4)
  Sym encoder(Sym placed);

  @LayerNorm
  Sym norm(Sym encoder);

  @Mean(axes = 1)
  Sym pooled(Sym norm);

  @Dense(units = 10)
  Sym logits(Sym pooled);

  @Softmax
  Sym probs(Sym logits);
}
