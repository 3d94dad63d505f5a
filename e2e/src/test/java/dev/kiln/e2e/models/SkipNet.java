package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Upsample;

/**
 * Test model: a U-Net's skip connection over sizes declared even, so that pooling by 2 and
 * upsampling by 2 gives back the input's size and the sum compiles.
 */
@Model
public interface SkipNet {
  @FreeDim(min = 4, multipleOf = 2)
  int H = -10;

  @FreeDim(multipleOf = 2)
  int W = -11;

  @Input(shape = {BATCH, 3, H, W})
  Sym image();

  @Conv2D(filters = 4, kernel = 3, pad = 1)
  Sym conv(Sym image);

  @MaxPool(kernel = 2, stride = 2)
  Sym pooled(Sym conv);

  @Conv2D(filters = 4, kernel = 3, pad = 1)
  Sym inner(Sym pooled);

  @Upsample(scale = 2)
  Sym back(Sym inner);

  @Add
  Sym sum(Sym conv, Sym back);
}
