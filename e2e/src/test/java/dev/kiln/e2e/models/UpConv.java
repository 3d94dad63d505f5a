package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Deconv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Test model: a classifier that shrinks an image with a strided convolution, enlarges it again with
 * a transposed convolution (whose weight is an array of its own, not a view of the fused
 * parameters) and reads it with a grouped convolution.
 */
@Model(classifier = true)
public interface UpConv {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 4, kernel = 4, stride = 4, activation = Act.RELU)
  Sym down(Sym image);

  @Deconv2D(filters = 4, kernel = 2, stride = 2, activation = Act.RELU)
  Sym up(Sym down);

  @Conv2D(filters = 4, kernel = 3, stride = 2, groups = 2, activation = Act.RELU)
  Sym grouped(Sym up);

  @Dense(units = 10)
  Sym logits(Sym grouped);

  @Softmax
  Sym probs(Sym logits);
}
