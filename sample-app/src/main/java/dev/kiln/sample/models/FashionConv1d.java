package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv1D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * A 1-D convolutional classifier for Fashion-MNIST, as an audio or sensor model reads a signal:
 * each image is 28 channels (its rows) of a signal 28 long (its columns), convolved along the
 * columns by three 1-D convolutions, then two dense layers.
 */
@Model(classifier = true)
public interface FashionConv1d {
  /** Pixels scaled to [0, 1]: each image's 28 rows are the channels, its columns the positions. */
  @Input(shape = {BATCH, 28, 28})
  Sym signal();

  /** {@code [N, 64, 28]}. */
  @Conv1D(filters = 64, kernel = 3, pad = 1, activation = Act.RELU)
  Sym conv1(Sym signal);

  /** {@code [N, 64, 14]}. */
  @Conv1D(filters = 64, kernel = 3, stride = 2, pad = 1, activation = Act.RELU)
  Sym conv2(Sym conv1);

  /** {@code [N, 128, 7]}. */
  @Conv1D(filters = 128, kernel = 3, stride = 2, pad = 1, activation = Act.RELU)
  Sym conv3(Sym conv2);

  /** Reads {@code [N, 128, 7]} as 896 features. */
  @Dense(units = 128, activation = Act.RELU)
  Sym hidden(Sym conv3);

  /** Unnormalised class scores. */
  @Dense(units = 10)
  Sym logits(Sym hidden);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
