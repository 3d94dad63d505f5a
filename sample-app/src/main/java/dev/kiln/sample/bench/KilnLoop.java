package dev.kiln.sample.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionMlpModel;

/**
 * What a Kiln user writes: the generated model's classifier and {@code trainStep}, or {@code
 * trainBatch} when each batch's loss is wanted too.
 */
final class KilnLoop implements TrainLoop {
  private final FashionMlpModel model;
  private final Classifier classifier;
  private final Sgd sgd;
  private final boolean withLoss;

  KilnLoop(long seed, boolean withLoss) {
    this.withLoss = withLoss;
    model = FashionMlpModel.create(Init.xavier(), seed);
    classifier = model.classifier();
    sgd = new Sgd(0.1f);
  }

  @Override
  public void step(float[] features, int[] labels) {
    if (withLoss) {
      classifier.trainBatch(features, labels, sgd);
    } else {
      classifier.trainStep(features, labels, sgd);
    }
  }

  @Override
  public void sync() {
    Mx.check(Mx.api().MXNDArrayWaitAll(), "MXNDArrayWaitAll");
  }

  @Override
  public void close() {
    sgd.close();
    model.close();
  }
}
