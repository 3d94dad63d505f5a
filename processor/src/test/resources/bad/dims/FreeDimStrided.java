package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimStrided {
  @FreeDim int H = -10;
  @FreeDim(multipleOf = 2) int W = -11;

  @Input(shape = {BATCH, 8, H, W}) Sym image();
  @MaxPool(kernel = 2, stride = 2) Sym pooled(Sym image);
  @Conv2D(filters = 8, kernel = 3, stride = 2, pad = 1) Sym strided(Sym image);

  @Add
  Sym sum(Sym pooled, Sym strided);
}
