package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Deconv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * A convolutional autoencoder for 28x28 Fashion-MNIST images: two strided convolutions squeeze an
 * image into a code of 8 maps of 7x7 (392 values for its 784 pixels), two transposed convolutions
 * grow it back to 28x28, and a 3x3 convolution with a sigmoid draws the pixels. Trained to
 * reproduce its input under the mean squared error ({@code @L2Loss}).
 */
@Model
public interface FashionAutoencoder {
  /** Pixels scaled to [0, 1], one single-channel 28x28 image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** {@code [N, 16, 14, 14]}. */
  @Conv2D(filters = 16, kernel = 3, stride = 2, pad = 1, activation = Act.RELU)
  Sym down1(Sym image);

  /** {@code [N, 8, 7, 7]}: the code. */
  @Conv2D(filters = 8, kernel = 3, stride = 2, pad = 1, activation = Act.RELU)
  Sym code(Sym down1);

  /** {@code [N, 16, 14, 14]}. */
  @Deconv2D(filters = 16, kernel = 4, stride = 2, pad = 1, activation = Act.RELU)
  Sym up1(Sym code);

  /** {@code [N, 8, 28, 28]}. */
  @Deconv2D(filters = 8, kernel = 4, stride = 2, pad = 1, activation = Act.RELU)
  Sym up2(Sym up1);

  /** {@code [N, 1, 28, 28]}: pixels in (0, 1). */
  @Conv2D(filters = 1, kernel = 3, pad = 1, activation = Act.SIGMOID)
  Sym decoded(Sym up2);

  /** The reconstruction, trained against the input image under the mean squared error. */
  @L2Loss
  Sym reconstruction(Sym decoded);
}
