package dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A U-Net's skip connection: sizes declared even, so pooled-then-upsampled is the input's size. */
@Model
public interface UNet {
  @FreeDim(min = 4, multipleOf = 2) int H = -10;
  @FreeDim(multipleOf = 2) int W = -11;

  @Input(shape = {BATCH, 8, H, W}) Sym image();
  @Conv2D(filters = 8, kernel = 3, pad = 1) Sym conv(Sym image);
  @MaxPool(kernel = 2, stride = 2) Sym pooled(Sym conv);
  @Conv2D(filters = 8, kernel = 3, pad = 1) Sym inner(Sym pooled);
  @Upsample(scale = 2) Sym back(Sym inner);

  @Add
  Sym sum(Sym image, Sym back);
}
