package dev.kiln.bench;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.LambdaBlock;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.pooling.Pool;
import ai.djl.nn.recurrent.LSTM;
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
 * DJL's idiomatic training loop on its MXNet engine: the workload's network as DJL blocks, {@code
 * SoftmaxCrossEntropyLoss}, {@code Optimizer.sgd()} with a fixed learning rate of 0.1,
 * Xavier-initialised weights, and per step a {@code Batch} of NDArrays made from the Java arrays,
 * {@code EasyTrain.trainBatch} and {@code trainer.step()}. No training listeners, so DJL computes
 * the loss but no metrics.
 */
final class DjlLoop implements TrainLoop {
  private final int batch;
  private final Model model;
  private final Trainer trainer;
  private final Shape dataShape;
  private final Shape labelShape;
  private final float[] labelValues;

  /** DJL's network of {@code w}, its trainer initialised for batches of {@code batch}. */
  DjlLoop(Workload w, int batch) {
    this.batch = batch;
    this.dataShape = new Shape(w.inputShape(batch));
    this.labelShape = new Shape(batch);
    this.labelValues = new float[batch];
    Mx.api(); // the same libmxnet, thread settings and NumPy mode as the other loops
    model = Model.newInstance(w.label(), Device.cpu(), "MXNet");
    model.setBlock(block(w));
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

  /** The network of {@code w} as DJL blocks, layer for layer Kiln's model. */
  static Block block(Workload w) {
    return switch (w) {
      case MLP ->
          new SequentialBlock()
              .add(Linear.builder().setUnits(128).build())
              .add(Activation.reluBlock())
              .add(Linear.builder().setUnits(10).build());
      case LENET ->
          new SequentialBlock()
              .add(conv(20, false))
              .add(batchNorm())
              .add(Activation.reluBlock())
              .add(pool())
              .add(conv(50, false))
              .add(batchNorm())
              .add(Activation.reluBlock())
              .add(pool())
              .add(Blocks.batchFlattenBlock())
              .add(Linear.builder().setUnits(256).build())
              .add(Activation.reluBlock())
              .add(Linear.builder().setUnits(10).build());
      case LENET1632 ->
          new SequentialBlock()
              .add(conv(16, true))
              .add(Activation.reluBlock())
              .add(batchNorm())
              .add(pool())
              .add(conv(32, true))
              .add(Activation.reluBlock())
              .add(pool())
              .add(Blocks.batchFlattenBlock())
              .add(Linear.builder().setUnits(64).build())
              .add(Activation.reluBlock())
              .add(Linear.builder().setUnits(10).build());
      case VIT -> DjlVit.block();
      case LSTM ->
          new SequentialBlock()
              .add(
                  LSTM.builder()
                      .setStateSize(128)
                      .setNumLayers(1)
                      .optBatchFirst(true)
                      .optReturnState(false)
                      .build())
              // The output at the last step, which for one forward layer is its final state.
              .add(
                  new LambdaBlock(
                      x -> new NDList(x.singletonOrThrow().get(":, -1, :")), "last_step"))
              .add(Linear.builder().setUnits(10).build());
    };
  }

  private static Block conv(int filters, boolean bias) {
    return Conv2d.builder()
        .setKernelShape(new Shape(5, 5))
        .setFilters(filters)
        .optBias(bias)
        .build();
  }

  private static Block batchNorm() {
    return BatchNorm.builder().optEpsilon(1e-3f).optMomentum(0.9f).build();
  }

  private static Block pool() {
    return Pool.maxPool2dBlock(new Shape(2, 2), new Shape(2, 2));
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
