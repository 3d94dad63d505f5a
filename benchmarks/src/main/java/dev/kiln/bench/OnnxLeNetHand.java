package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * The network of the ONNX LeNet ({@code lenet.onnx}, PyTorch's LeNet-5: convolutions of 6 and 16
 * filters, dense layers of 120, 84 and 10) written by hand, layer for layer, for {@code bench
 * import} to time against {@link OnnxLeNetImported}.
 */
@Model(classifier = true)
public interface OnnxLeNetHand {
  /** One single-channel 28x28 image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** {@code [N, 6, 28, 28]}. */
  @Conv2D(filters = 6, kernel = 5, pad = 2, activation = Act.RELU)
  Sym conv1(Sym image);

  /** {@code [N, 6, 14, 14]}. */
  @MaxPool(kernel = 2)
  Sym pool1(Sym conv1);

  /** {@code [N, 16, 10, 10]}. */
  @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)
  Sym conv2(Sym pool1);

  /** {@code [N, 16, 5, 5]}. */
  @MaxPool(kernel = 2)
  Sym pool2(Sym conv2);

  /** {@code [N, 400]}. */
  @Flatten
  Sym flat(Sym pool2);

  /** 120 features. */
  @Dense(units = 120, activation = Act.RELU)
  Sym fc1(Sym flat);

  /** 84 features. */
  @Dense(units = 84, activation = Act.RELU)
  Sym fc2(Sym fc1);

  /** Class scores. */
  @Dense(units = 10)
  Sym fc3(Sym fc2);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym fc3);
}
