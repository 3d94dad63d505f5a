package dev.kiln.serving;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * {@link FreeDimsServeTest}'s model: fully convolutional over two-channel images of any size of at
 * least 8 by 8, three scores per 2x2 cell of a 3x3 convolution's output: {@code [BATCH, 3, (H - 2)
 * / 2, (W - 2) / 2]}.
 */
@Model
public interface FcnNet {
  @FreeDim(min = 8)
  int H = -10;

  @FreeDim(min = 8)
  int W = -11;

  @Input(shape = {BATCH, 2, H, W})
  Sym image();

  @Conv2D(filters = 4, kernel = 3)
  Sym conv(Sym image);

  @Activation(Act.RELU)
  Sym relu(Sym conv);

  @MaxPool(kernel = 2)
  Sym pool(Sym relu);

  @Conv2D(filters = 3, kernel = 1)
  Sym scores(Sym pool);
}
