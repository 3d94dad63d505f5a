package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimFlatDense {
  @FreeDim int H = -10;
  @FreeDim int W = -11;

  @Input(shape = {BATCH, 1, H, W}) Sym image();
  @Conv2D(filters = 8, kernel = 3) Sym conv(Sym image);
  @Flatten Sym flat(Sym conv);

  @Dense(units = 10)
  Sym logits(Sym flat);
}
