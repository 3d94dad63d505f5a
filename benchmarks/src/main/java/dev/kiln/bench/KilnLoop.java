package dev.kiln.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.WriteFence;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionLstmModel;
import dev.kiln.sample.models.FashionMlpModel;
import dev.kiln.sample.models.FashionVitModel;

/**
 * What a Kiln user writes: the generated model's classifier and {@code trainStep}, or {@code
 * trainBatch} when each batch's loss is wanted too; plain SGD at learning rate 0.1.
 */
final class KilnLoop implements TrainLoop {
  /** How each step is taken. */
  enum Mode {
    /** {@code trainStep}, every update's gradients checked (the default). */
    STEP,
    /** {@code trainBatch}, which reads the batch's loss and accuracy back. */
    LOSS,
    /** {@code trainStep} with {@code checkGradients(false)}. */
    STEP_UNCHECKED,
    /**
     * {@code trainStep} on executors bound with {@code -Dkiln.inputFence=false}: every batch copied
     * in with MXNet's synchronous copy.
     */
    STEP_SYNC_COPY
  }

  private static final String FENCE = WriteFence.SWITCH;

  private final KilnModel model;
  private final Classifier classifier;
  private final Sgd sgd;
  private final Mode mode;
  private boolean stepped;

  /** A new model of {@code w} seeded by {@code seed}, trained as {@code mode} says. */
  KilnLoop(Workload w, long seed, Mode mode) {
    this(create(w, seed), mode);
  }

  /** {@code model}, trained by {@code trainStep}. */
  KilnLoop(KilnModel model) {
    this(model, Mode.STEP);
  }

  private KilnLoop(KilnModel model, Mode mode) {
    this.mode = mode;
    this.model = model;
    if (mode == Mode.STEP_UNCHECKED) {
      model.runtime().checkGradients(false);
    }
    classifier = model.classifier();
    sgd = new Sgd(0.1f);
  }

  /** The generated model of {@code w}, Xavier-initialised with {@code seed}. */
  static KilnModel create(Workload w, long seed) {
    return switch (w) {
      case MLP -> FashionMlpModel.create(Init.xavier(), seed);
      case LENET -> FashionLeNetModel.create(Init.xavier(), seed);
      case LENET1632 -> LeNet1632Model.create(Init.xavier(), seed);
      case LSTM -> FashionLstmModel.create(Init.xavier(), seed);
      case VIT -> FashionVitModel.create(Init.xavier(), seed);
    };
  }

  @Override
  public void step(float[] features, int[] labels) {
    if (mode == Mode.STEP_SYNC_COPY && !stepped) {
      // The first step binds the executors, which read the switch then.
      String before = System.getProperty(FENCE);
      System.setProperty(FENCE, "false");
      try {
        classifier.trainStep(features, labels, sgd);
      } finally {
        if (before == null) {
          System.clearProperty(FENCE);
        } else {
          System.setProperty(FENCE, before);
        }
      }
      stepped = true;
      return;
    }
    stepped = true;
    if (mode == Mode.LOSS) {
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
