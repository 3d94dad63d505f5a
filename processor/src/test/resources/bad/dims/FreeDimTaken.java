package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimTaken {
  @FreeDim int H = -10;
  @FreeDim int W = -10;
  int CHANNELS = -11;

  @Input(shape = {BATCH, 3, H, W}) Sym image();
  @Conv2D(filters = 8, kernel = 3) Sym conv(Sym image);
}
