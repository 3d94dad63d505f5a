package dev.kiln.sample.models;

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
 * A Vision Transformer for 28x28 Fashion-MNIST images: each image cut into 16 patches of 7x7
 * pixels, each patch embedded into 64 values by one strided convolution, a learned position added
 * to each, four encoder blocks ({@link VitBlock}) of multi-head self-attention and a feed-forward
 * network, then the mean of the 16 tokens classified by a dense layer.
 */
@Model(classifier = true)
public interface FashionVit {
  /** Pixels scaled to [0, 1], one single-channel 28x28 image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** Each 7x7 patch embedded into 64 values: {@code [N, 64, 4, 4]}. */
  @Conv2D(filters = 64, kernel = 7, stride = 7)
  Sym patches(Sym image);

  /** The 4x4 patches in a row: {@code [N, 64, 16]}. */
  @Reshape(shape = {BATCH, 64, 16})
  Sym grid(Sym patches);

  /** 16 tokens of 64 values: {@code [N, 16, 64]}. */
  @Transpose(axes = {0, 2, 1})
  Sym tokens(Sym grid);

  /** Where each patch was, learned. */
  @PositionalEmbedding(steps = 16)
  Sym placed(Sym tokens);

  /** Four copies of {@link VitBlock}, each with its own parameters. */
  @Block(value = VitBlock.class, repeat = 4)
  Sym encoder(Sym placed);

  @LayerNorm
  Sym norm(Sym encoder);

  /** The mean of the 16 tokens: {@code [N, 64]}. */
  @Mean(axes = 1)
  Sym pooled(Sym norm);

  /** Unnormalised class scores. */
  @Dense(units = 10)
  Sym logits(Sym pooled);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
