package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimSkip {
  @FreeDim int H = -10;
  @FreeDim int W = -11;

  @Input(shape = {BATCH, 8, H, W}) Sym image();
  @MaxPool(kernel = 2, stride = 2) Sym pooled(Sym image);
  @Upsample(scale = 2) Sym back(Sym pooled);

  @Add
  Sym sum(Sym image, Sym back);
}
