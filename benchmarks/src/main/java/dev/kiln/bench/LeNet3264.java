package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * The sample app's LeNet ({@code FashionLeNet}) declared with 32 and 64 filters instead of 20 and
 * 50: what training with the filters padded does, without the padding's own work ({@code bench
 * padding}'s ceiling).
 */
@Model(classifier = true)
public interface LeNet3264 {
  /** Pixels scaled to [0, 1], one single-channel 28x28 image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** {@code [N, 32, 24, 24]}. */
  @Conv2D(filters = 32, kernel = 5, noBias = true)
  Sym conv1(Sym image);

  /** Normalises each of the 32 channels. */
  @BatchNorm
  Sym bn1(Sym conv1);

  /** Keeps the positive part. */
  @Activation(Act.RELU)
  Sym relu1(Sym bn1);

  /** {@code [N, 32, 12, 12]}. */
  @MaxPool(kernel = 2)
  Sym pool1(Sym relu1);

  /** {@code [N, 64, 8, 8]}. */
  @Conv2D(filters = 64, kernel = 5, noBias = true)
  Sym conv2(Sym pool1);

  /** Normalises each of the 64 channels. */
  @BatchNorm
  Sym bn2(Sym conv2);

  /** Keeps the positive part. */
  @Activation(Act.RELU)
  Sym relu2(Sym bn2);

  /** {@code [N, 64, 4, 4]}. */
  @MaxPool(kernel = 2)
  Sym pool2(Sym relu2);

  /** Reads {@code [N, 64, 4, 4]} as 1024 features, like MXNet's {@code FullyConnected}. */
  @Dense(units = 256, activation = Act.RELU)
  Sym hidden(Sym pool2);

  /** Unnormalised class scores. */
  @Dense(units = 10)
  Sym logits(Sym hidden);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
