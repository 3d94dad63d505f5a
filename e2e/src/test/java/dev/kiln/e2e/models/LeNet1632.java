package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Regression model (issue 8): a LeNet with 16 and 32 filters, whose convolution weights oneDNN
 * rewrites into a blocked layout in inference passes; while parameters were views of one array
 * that broke {@code evaluate} after the first epoch.
 */
@Model(classifier = true)
public interface LeNet1632 {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)
  Sym conv1(Sym image);

  @BatchNorm
  Sym bn1(Sym conv1);

  @MaxPool(kernel = 2)
  Sym pool1(Sym bn1);

  @Conv2D(filters = 32, kernel = 5, activation = Act.RELU)
  Sym conv2(Sym pool1);

  @MaxPool(kernel = 2)
  Sym pool2(Sym conv2);

  @Dense(units = 64, activation = Act.RELU)
  Sym hidden(Sym pool2);

  @Dense(units = 10)
  Sym logits(Sym hidden);

  @Softmax
  Sym probs(Sym logits);
}
