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
 * A LeNet-style convolutional network for 28x28 Fashion-MNIST images: two blocks of a 5x5
 * convolution, batch normalisation, ReLU and 2x2 max pooling, then a dense hidden layer, a dense
 * output layer and a softmax. The convolutions have no bias: the batch norm's beta is one.
 *
 * <p>The Fashion-MNIST rows of 784 pixels feed it unchanged: {@code [N, 784]} and {@code [N, 1,
 * 28, 28]} hold the same values in the same row-major order.
 */
@Model(classifier = true)
public interface ScratchLeNet16_48 {
  /** Pixels scaled to [0, 1], one single-channel 28x28 image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** {@code [N, 20, 24, 24]}. */
  @Conv2D(filters = 16, kernel = 5, noBias = true)
  Sym conv1(Sym image);

  /** Normalises each of the 20 channels. */
  @BatchNorm
  Sym bn1(Sym conv1);

  /** Keeps the positive part. */
  @Activation(Act.RELU)
  Sym relu1(Sym bn1);

  /** {@code [N, 20, 12, 12]}. */
  @MaxPool(kernel = 2)
  Sym pool1(Sym relu1);

  /** {@code [N, 50, 8, 8]}. */
  @Conv2D(filters = 48, kernel = 5, noBias = true)
  Sym conv2(Sym pool1);

  /** Normalises each of the 50 channels. */
  @BatchNorm
  Sym bn2(Sym conv2);

  /** Keeps the positive part. */
  @Activation(Act.RELU)
  Sym relu2(Sym bn2);

  /** {@code [N, 50, 4, 4]}. */
  @MaxPool(kernel = 2)
  Sym pool2(Sym relu2);

  /** Reads {@code [N, 50, 4, 4]} as 800 features, like MXNet's {@code FullyConnected}. */
  @Dense(units = 256, activation = Act.RELU)
  Sym hidden(Sym pool2);

  /** Unnormalised class scores. */
  @Dense(units = 10)
  Sym logits(Sym hidden);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
