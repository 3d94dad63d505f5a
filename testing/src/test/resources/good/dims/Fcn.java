package dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface Fcn {
  @FreeDim(min = 8) int H = -10;
  @FreeDim(min = 8) int W = -11;

  @Input(shape = {BATCH, 1, H, W}) Sym image();
  @Conv2D(filters = 8, kernel = 3, pad = 1, activation = Act.RELU) Sym conv1(Sym image);
  @MaxPool(kernel = 2, stride = 2) Sym pool(Sym conv1);
  @Conv2D(filters = 16, kernel = 3) Sym conv2(Sym pool);
  @GlobalAvgPool Sym global(Sym conv2);
  @Flatten Sym flat(Sym global);
  @Dense(units = 10) Sym logits(Sym flat);
  @Softmax Sym probs(Sym logits);
}
