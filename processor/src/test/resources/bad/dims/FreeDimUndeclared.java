package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimUndeclared {
  @FreeDim int H = -10;
  int W = -11;

  @Input(shape = {BATCH, 3, H, W})
  Sym image();
  @Conv2D(filters = 8, kernel = 3) Sym conv(Sym image);
}
