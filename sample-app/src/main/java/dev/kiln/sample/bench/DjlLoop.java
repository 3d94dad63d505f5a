package dev.kiln.sample.bench;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.initializer.XavierInitializer;
import ai.djl.training.initializer.XavierInitializer.FactorType;
import ai.djl.training.initializer.XavierInitializer.RandomType;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.translate.Batchifier;
import dev.kiln.runtime.mxnet.Mx;

/**
 * DJL's idiomatic training loop on its MXNet engine: a {@code SequentialBlock} of {@code
 * Linear(128)}, relu, {@code Linear(10)}, {@code SoftmaxCrossEntropyLoss}, {@code Optimizer.sgd()}
 * with a fixed learning rate of 0.1, Xavier-initialised weights, and per step a {@code Batch} of
 * NDArrays made from the Java arrays, {@code EasyTrain.trainBatch} and {@code trainer.step()}. No
 * training listeners, so DJL computes the loss but no metrics.
 */
final class DjlLoop implements TrainLoop {
  private final int batch;
  private final Model model;
  private final Trainer trainer;
  private final Shape dataShape;
  private final Shape labelShape;
  private final float[] labelValues;

  DjlLoop(int batch) {
    this.batch = batch;
    this.dataShape = new Shape(batch, 784);
    this.labelShape = new Shape(batch);
    this.labelValues = new float[batch];
    Mx.api(); // the same libmxnet, thread settings and NumPy mode as the other loops
    model = Model.newInstance("mlp", Device.cpu(), "MXNet");
    model.setBlock(
        new SequentialBlock()
            .add(Linear.builder().setUnits(128).build())
            .add(Activation.reluBlock())
            .add(Linear.builder().setUnits(10).build()));
    DefaultTrainingConfig config =
        new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
            .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.1f)).build())
            .optInitializer(
                new XavierInitializer(RandomType.UNIFORM, FactorType.AVG, 3f),
                Parameter.Type.WEIGHT)
            .optDevices(new Device[] {Device.cpu()});
    trainer = model.newTrainer(config);
    trainer.initialize(dataShape);
  }

  @Override
  public void step(float[] features, int[] labels) {
    for (int i = 0; i < batch; i++) {
      labelValues[i] = labels[i];
    }
    NDManager manager = trainer.getManager().newSubManager();
    NDList x = new NDList(manager.create(features, dataShape));
    NDList y = new NDList(manager.create(labelValues, labelShape));
    try (Batch b = new Batch(manager, x, y, batch, Batchifier.STACK, Batchifier.STACK, 0, 0)) {
      EasyTrain.trainBatch(trainer, b);
      trainer.step();
    }
  }

  @Override
  public void sync() {
    Mx.check(Mx.api().MXNDArrayWaitAll(), "MXNDArrayWaitAll");
  }

  @Override
  public void close() {
    trainer.close();
    model.close();
  }
}
