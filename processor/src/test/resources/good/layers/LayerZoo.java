package good.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;

/** Every layer of the library once; compiled by LayerDiagnosticsTest. */
@Model
public interface LayerZoo {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Input(shape = {BATCH, 6})
  Sym tokens();

  @Reshape(shape = {BATCH, 1, 28, 28})
  Sym image(Sym pixels);

  @Conv2D(filters = 6, kernel = 5, pad = 2, activation = Act.RELU)
  Sym conv1(Sym image);

  @BatchNorm
  Sym bn1(Sym conv1);

  @MaxPool(kernel = 2)
  Sym pool1(Sym bn1);

  @Conv2D(filters = 16, kernel = {5, 3}, stride = {1, 2}, dilation = {1, 2}, noBias = true)
  Sym conv2(Sym pool1);

  @AvgPool(kernel = 2, stride = 1, pad = 1)
  Sym pool2(Sym conv2);

  @GlobalAvgPool
  Sym gap(Sym pool2);

  @Reshape(shape = {Reshape.COPY, Reshape.MERGE, Reshape.COPY_REST})
  Sym features(Sym gap);

  @Frozen
  @Embedding(inputDim = 50, outputDim = 8)
  Sym vectors(Sym tokens);

  @Reshape(shape = {0, Reshape.SPLIT, 2, BATCH, 8})
  Sym pairs(Sym vectors);

  @Flatten
  Sym flatPairs(Sym pairs);

  @LayerNorm
  Sym norm(Sym flatPairs);

  @Dropout(rate = 0.25)
  Sym dropped(Sym norm);

  @Output
  @Dense(units = 10)
  Sym imageScore(Sym features);

  @Dense(units = 10)
  Sym tokenScore(Sym dropped);
}
