package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Test model: a strided, padded, dilated convolution with an activation, then a flatten and a
 * dense layer. {@code [N, 2, 7, 6]} to {@code [N, 3, 3, 4]}: height {@code (7 + 2 - (2·2 + 1)) / 2
 * + 1 = 3}, width {@code (6 + 2 - 2) / 2 + 1 = 4}.
 */
@Model
public interface ConvFlatten {
  @Input(shape = {BATCH, 2, 7, 6})
  Sym image();

  @Conv2D(filters = 3, kernel = {3, 2}, stride = 2, pad = 1, dilation = {2, 1},
      activation = Act.TANH)
  Sym conv(Sym image);

  @Flatten
  Sym flat(Sym conv);

  @Dense(units = 2)
  Sym score(Sym flat);
}
