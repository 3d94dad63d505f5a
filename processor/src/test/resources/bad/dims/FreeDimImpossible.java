package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimImpossible {
  @FreeDim(max = 4) int H = -10;
  @FreeDim int W = -11;

  @Input(shape = {BATCH, 3, H, W}) Sym image();

  @Conv2D(filters = 8, kernel = 5)
  Sym conv(Sym image);
}
