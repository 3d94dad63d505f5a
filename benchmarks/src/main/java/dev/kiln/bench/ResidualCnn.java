package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * The inference benchmark's residual CNN for 28x28 images: a 3x3 stem of 32 channels, two residual
 * blocks (conv, batch norm, ReLU, conv, batch norm, added to the block's input, ReLU), a strided
 * convolution to 64 channels at 14x14, one more block there, global average pooling and a dense
 * layer: the convolution + batch norm (+ sum) + ReLU patterns oneDNN's pass fuses.
 */
@Model(classifier = true)
public interface ResidualCnn {
  /** One single-channel image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** {@code [N, 32, 28, 28]}. */
  @Conv2D(filters = 32, kernel = 3, pad = 1, noBias = true)
  Sym stem(Sym image);

  /** Normalises the stem. */
  @BatchNorm
  Sym stemBn(Sym stem);

  /** The first block's input. */
  @Activation(Act.RELU)
  Sym x0(Sym stemBn);

  /** Block 1, first convolution. */
  @Conv2D(filters = 32, kernel = 3, pad = 1, noBias = true)
  Sym b1c1(Sym x0);

  /** Block 1, first batch norm. */
  @BatchNorm
  Sym b1n1(Sym b1c1);

  /** Block 1, first ReLU. */
  @Activation(Act.RELU)
  Sym b1r1(Sym b1n1);

  /** Block 1, second convolution. */
  @Conv2D(filters = 32, kernel = 3, pad = 1, noBias = true)
  Sym b1c2(Sym b1r1);

  /** Block 1, second batch norm. */
  @BatchNorm
  Sym b1n2(Sym b1c2);

  /** Block 1's skip connection. */
  @Add
  Sym b1sum(Sym b1n2, Sym x0);

  /** Block 1's output. */
  @Activation(Act.RELU)
  Sym x1(Sym b1sum);

  /** Block 2, first convolution. */
  @Conv2D(filters = 32, kernel = 3, pad = 1, noBias = true)
  Sym b2c1(Sym x1);

  /** Block 2, first batch norm. */
  @BatchNorm
  Sym b2n1(Sym b2c1);

  /** Block 2, first ReLU. */
  @Activation(Act.RELU)
  Sym b2r1(Sym b2n1);

  /** Block 2, second convolution. */
  @Conv2D(filters = 32, kernel = 3, pad = 1, noBias = true)
  Sym b2c2(Sym b2r1);

  /** Block 2, second batch norm. */
  @BatchNorm
  Sym b2n2(Sym b2c2);

  /** Block 2's skip connection. */
  @Add
  Sym b2sum(Sym b2n2, Sym x1);

  /** Block 2's output. */
  @Activation(Act.RELU)
  Sym x2(Sym b2sum);

  /** {@code [N, 64, 14, 14]}. */
  @Conv2D(filters = 64, kernel = 3, pad = 1, stride = 2, noBias = true)
  Sym down(Sym x2);

  /** Normalises the downsampling. */
  @BatchNorm
  Sym downBn(Sym down);

  /** Block 3's input. */
  @Activation(Act.RELU)
  Sym x3(Sym downBn);

  /** Block 3, first convolution. */
  @Conv2D(filters = 64, kernel = 3, pad = 1, noBias = true)
  Sym b3c1(Sym x3);

  /** Block 3, first batch norm. */
  @BatchNorm
  Sym b3n1(Sym b3c1);

  /** Block 3, first ReLU. */
  @Activation(Act.RELU)
  Sym b3r1(Sym b3n1);

  /** Block 3, second convolution. */
  @Conv2D(filters = 64, kernel = 3, pad = 1, noBias = true)
  Sym b3c2(Sym b3r1);

  /** Block 3, second batch norm. */
  @BatchNorm
  Sym b3n2(Sym b3c2);

  /** Block 3's skip connection. */
  @Add
  Sym b3sum(Sym b3n2, Sym x3);

  /** Block 3's output. */
  @Activation(Act.RELU)
  Sym x4(Sym b3sum);

  /** {@code [N, 64, 1, 1]}. */
  @GlobalAvgPool
  Sym pooled(Sym x4);

  /** Class scores. */
  @Dense(units = 10)
  Sym logits(Sym pooled);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
