package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimUnused {
  @FreeDim int H = -10;

  @FreeDim
  int W = -11;

  @Input(shape = {BATCH, 3, H, H}) Sym image();
  @Conv2D(filters = 8, kernel = 3) Sym conv(Sym image);
}
