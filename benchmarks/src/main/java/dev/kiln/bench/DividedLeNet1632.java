package dev.kiln.bench;

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
 * {@link LeNet1632} with a {@link ChannelDivide} after its first convolution, for {@code bench
 * custom}.
 */
@Model(classifier = true)
public interface DividedLeNet1632 {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)
  Sym conv1(Sym image);

  @ChannelDivide
  Sym divided(Sym conv1);

  @BatchNorm
  Sym bn1(Sym divided);

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
