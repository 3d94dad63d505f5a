package dev.kiln.cli;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.dist.Node;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.Sgd;
import java.util.Arrays;

/**
 * A model that is not a classifier, trained data-parallel by hand: every worker runs forward on its
 * own batch, back-propagates the gradient of its batch's mean squared error against a target and
 * calls {@link DataParallel#update}. Run by {@code LaunchTest} as every process of a job; the same
 * steps on one model and the union of the batches are {@link #reference}.
 */
public final class RegressionJob {
  static final int STEPS = 12;
  static final int BATCH = 4;
  static final float LEARNING_RATE = 0.2f;

  private RegressionJob() {}

  /** Serves in a scheduler or server; in a worker, trains and prints its final weights. */
  public static void main(String[] args) {
    Node.serveIfServer();
    try (RegressionNetModel model = RegressionNetModel.create(Init.xavier(), 11);
        FusedOptimizer sgd = new Sgd(LEARNING_RATE);
        DataParallel dp = DataParallel.distributed(model);
        NDManager nd = NDManager.newBaseManager()) {
      model.setTraining(true);
      for (int step = 0; step < STEPS; step++) {
        float[] x = inputs(step, dp.rank());
        NDArray y = model.forward(nd.create(x, new Shape(BATCH, 2, 3)));
        model.backward(
            nd.create(meanSquaredErrorGradient(y.toFloatArray(), x, BATCH), new Shape(BATCH, 4)));
        dp.update(sgd);
        Node.say("STEP rank=" + dp.rank() + " epoch=1 batch=" + (step + 1));
      }
      Node.say(
          "RESULT rank="
              + dp.rank()
              + " weight="
              + Arrays.toString(model.params().yWeight().get())
              + " bias="
              + Arrays.toString(model.params().yBias().get()));
    } catch (RuntimeException e) {
      Node.fail(e);
    }
    Node.halt(0);
  }

  /** Worker {@code rank}'s batch of step {@code step}: {@code BATCH} inputs of 2x3 values. */
  static float[] inputs(int step, int rank) {
    float[] x = new float[BATCH * 6];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) Math.sin(0.37 * (i + 1) + 1.3 * step + 2.9 * rank);
    }
    return x;
  }

  /** The target of an example: four values from its six inputs. */
  private static float target(float[] x, int example, int unit) {
    float sum = 0;
    for (int j = 0; j < 6; j++) {
      sum += x[example * 6 + j] * (j % (unit + 1) == 0 ? 0.5f : -0.25f);
    }
    return (float) Math.tanh(sum);
  }

  /** The gradient of {@code mean((y - target)^2)} over {@code examples * 4} outputs. */
  static float[] meanSquaredErrorGradient(float[] y, float[] x, int examples) {
    float[] g = new float[y.length];
    for (int e = 0; e < examples; e++) {
      for (int u = 0; u < 4; u++) {
        g[e * 4 + u] = 2 * (y[e * 4 + u] - target(x, e, u)) / (examples * 4);
      }
    }
    return g;
  }

  /**
   * One model trained on the batches of {@code workers} workers joined, step by step: the mean over
   * the whole joined batch, which is the average of the workers' own means. Returns the final
   * weights and biases, as the workers print them.
   */
  static String reference(int workers) {
    try (RegressionNetModel model = RegressionNetModel.create(Init.xavier(), 11);
        FusedOptimizer sgd = new Sgd(LEARNING_RATE);
        NDManager nd = NDManager.newBaseManager()) {
      model.setTraining(true);
      for (int step = 0; step < STEPS; step++) {
        float[] x = new float[workers * BATCH * 6];
        for (int r = 0; r < workers; r++) {
          System.arraycopy(inputs(step, r), 0, x, r * BATCH * 6, BATCH * 6);
        }
        NDArray y = model.forward(nd.create(x, new Shape(workers * BATCH, 2, 3)));
        model.backward(
            nd.create(
                meanSquaredErrorGradient(y.toFloatArray(), x, workers * BATCH),
                new Shape(workers * BATCH, 4)));
        model.update(sgd);
      }
      return "weight="
          + Arrays.toString(model.params().yWeight().get())
          + " bias="
          + Arrays.toString(model.params().yBias().get());
    }
  }
}
