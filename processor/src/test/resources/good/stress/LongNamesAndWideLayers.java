package good.stress;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;
import layers.WideAffine;

/** Long names and wide layers everywhere: every generated line must still fit 100 columns. */
@Model
public interface LongNamesAndWideLayers {
  @Input(shape = {BATCH, 3, 224, 224})
  Sym theImagesOfTheBatchAsOneTensor();

  @Conv2D(filters = 64, kernel = {7, 7}, stride = {2, 2}, pad = {3, 3}, dilation = {1, 1},
      activation = Act.RELU, noBias = true)
  Sym theFirstConvolutionOfTheStem(Sym theImagesOfTheBatchAsOneTensor);

  @Frozen
  @BatchNorm(eps = 1e-5, momentum = 0.99, axis = 1)
  Sym theNormalisationAfterTheFirstConvolution(Sym theFirstConvolutionOfTheStem);

  @GlobalAvgPool
  Sym theAverageOfEveryChannel(Sym theNormalisationAfterTheFirstConvolution);

  @Reshape(shape = {BATCH, 64})
  Sym theChannelAveragesAsRows(Sym theAverageOfEveryChannel);

  @Output
  @Dense(units = 1000, activation = Act.SIGMOID, noBias = true, flatten = false)
  Sym theScoreOfEveryClassOfImageNetBeforeTheSoftmax(Sym theChannelAveragesAsRows);

  @WideAffine(outputFeaturesOfTheLayer = 128, scaleOfTheOutputValues = 0.5f)
  Sym theEmbeddingForTheRetrievalIndex(Sym theChannelAveragesAsRows);
}
