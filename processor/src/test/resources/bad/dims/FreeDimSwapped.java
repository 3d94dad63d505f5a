package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimSwapped {
  @FreeDim int H = -10;
  @FreeDim int W = -11;

  @Input(shape = {BATCH, 3, H, W}) Sym image();
  @Input(shape = {BATCH, 3, W, H}) Sym other();
  @Conv2D(filters = 8, kernel = 5) Sym a(Sym image);
  @Conv2D(filters = 8, kernel = 5) Sym b(Sym other);

  @Add
  Sym sum(Sym a, Sym b);
}
