package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * A fully convolutional Fashion-MNIST classifier over images of any size: three 3x3 convolutions
 * (padded, so they keep the size) with batch norm, two 2x2 max poolings, a 1x1 convolution to one
 * map of scores per class, averaged over the whole image. It trains on the 28x28 images and
 * classifies larger ones (a garment on a wider canvas, or the same image scaled up) with the same
 * weights; see docs/dimensions.md for what it does there.
 */
@Model(classifier = true)
public interface FashionFcn {
  /** The image's height; the two poolings need at least 4 rows. */
  @FreeDim int H = -10;

  /** The image's width. */
  @FreeDim int W = -11;

  /** Pixels scaled to [0, 1], one single-channel image per example. */
  @Input(shape = {BATCH, 1, H, W})
  Sym image();

  /** {@code [N, 16, H, W]}. */
  @Conv2D(filters = 16, kernel = 3, pad = 1, noBias = true)
  Sym conv1(Sym image);

  @BatchNorm
  Sym bn1(Sym conv1);

  @Activation(Act.RELU)
  Sym relu1(Sym bn1);

  /** {@code [N, 16, H / 2, W / 2]}. */
  @MaxPool(kernel = 2, stride = 2)
  Sym pool1(Sym relu1);

  @Conv2D(filters = 32, kernel = 3, pad = 1, noBias = true)
  Sym conv2(Sym pool1);

  @BatchNorm
  Sym bn2(Sym conv2);

  @Activation(Act.RELU)
  Sym relu2(Sym bn2);

  /** {@code [N, 32, H / 4, W / 4]}. */
  @MaxPool(kernel = 2, stride = 2)
  Sym pool2(Sym relu2);

  @Conv2D(filters = 64, kernel = 3, pad = 1, noBias = true)
  Sym conv3(Sym pool2);

  @BatchNorm
  Sym bn3(Sym conv3);

  @Activation(Act.RELU)
  Sym relu3(Sym bn3);

  /** One score map per class, {@code [N, 10, H / 4, W / 4]}. */
  @Conv2D(filters = 10, kernel = 1)
  Sym scores(Sym relu3);

  /** {@code [N, 10, 1, 1]}, whatever the image's size. */
  @GlobalAvgPool
  Sym pooled(Sym scores);

  @Flatten
  Sym logits(Sym pooled);

  @Softmax
  Sym probs(Sym logits);
}
