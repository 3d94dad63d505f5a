package dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.PRelu;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Test model: MTCNN's first stage (PNet), fully convolutional over images of any size of at least
 * 12 by 12: a face score and a box per 12x12 window, strided by 2. Its pooling rounds up, as
 * Caffe's did.
 */
@Model
public interface Pnet {
  @FreeDim(min = 12)
  int H = -10;

  @FreeDim(min = 12)
  int W = -11;

  @Input(shape = {BATCH, 3, H, W})
  Sym image();

  @Conv2D(filters = 10, kernel = 3)
  Sym conv1(Sym image);

  @PRelu
  Sym prelu1(Sym conv1);

  @MaxPool(kernel = 2, stride = 2, convention = PoolConvention.FULL)
  Sym pool1(Sym prelu1);

  @Conv2D(filters = 16, kernel = 3)
  Sym conv2(Sym pool1);

  @PRelu
  Sym prelu2(Sym conv2);

  @Conv2D(filters = 32, kernel = 3)
  Sym conv3(Sym prelu2);

  @PRelu
  Sym prelu3(Sym conv3);

  @Conv2D(filters = 2, kernel = 1)
  Sym scoreLogits(Sym prelu3);

  @Output
  @Softmax(axis = 1)
  Sym score(Sym scoreLogits);

  @Conv2D(filters = 4, kernel = 1)
  Sym box(Sym prelu3);
}
