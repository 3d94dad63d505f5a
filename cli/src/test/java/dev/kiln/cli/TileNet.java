package dev.kiln.cli;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * {@link ServeFreeDimsCommandTest}'s model: fully convolutional over one-channel images whose
 * height is a multiple of 4 and width at least 4, two averaged 3x3 filters per 2x2 cell: {@code
 * [BATCH, 2, (H - 2) / 2, (W - 2) / 2]}.
 */
@Model
public interface TileNet {
  @FreeDim(min = 4, multipleOf = 4)
  int H = -10;

  @FreeDim(min = 4)
  int W = -11;

  @Input(shape = {BATCH, 1, H, W})
  Sym image();

  @Conv2D(filters = 2, kernel = 3)
  Sym conv(Sym image);

  @AvgPool(kernel = 2)
  Sym pool(Sym conv);
}
