package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.DenseTanhModel;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionMlpModel;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Small fixed problems that only a working forward, backward and update can solve. */
class ConvergenceTest {
  /**
   * Ten Gaussian blobs in 784 dimensions, one per class: the classifier must separate them almost
   * perfectly within a few hundred steps.
   */
  @Test
  void classifierLearnsSeparableBlobs() {
    Random rng = new Random(42);
    float[][] centres = new float[10][784];
    for (float[] c : centres) {
      for (int j = 0; j < 784; j++) {
        c[j] = (float) rng.nextGaussian();
      }
    }
    int n = 64;
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 1);
        Sgd sgd = new Sgd(0.05f)) {
      Classifier clf = m.classifier();
      Classifier.Result first = null;
      Classifier.Result last = null;
      for (int step = 0; step < 200; step++) {
        float[] x = new float[n * 784];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
          y[i] = rng.nextInt(10);
          for (int j = 0; j < 784; j++) {
            x[i * 784 + j] = centres[y[i]][j] + (float) rng.nextGaussian();
          }
        }
        last = step < 199 ? clf.trainBatch(x, y, sgd) : clf.evaluateBatch(x, y);
        if (first == null) {
          first = last;
        }
      }
      assertTrue(first.meanLoss() > 1.0, "starts untrained: " + first);
      assertTrue(last.meanLoss() < 0.05, "loss after training: " + last);
      assertTrue(last.accuracy() > 0.98, "accuracy after training: " + last);
    }
  }

  /** Least squares through forward/backward/update: fit y = tanh(W x + b) to a fixed target. */
  @Test
  void modelFitsATargetThroughForwardBackwardUpdate() {
    try (DenseTanhModel teacher = DenseTanhModel.create(Init.uniform(0.5f), 3);
        DenseTanhModel student = DenseTanhModel.create(Init.xavier(), 4);
        NDManager nd = NDManager.newBaseManager()) {
      Random rng = new Random(5);
      float[] x = new float[32 * 6];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rng.nextGaussian();
      }
      NDArray input = nd.create(x, new Shape(32, 2, 3));
      NDArray target = teacher.forward(input);
      student.setTraining(true);
      double firstLoss = 0;
      double loss = 0;
      for (int step = 0; step < 500; step++) {
        NDArray diff = student.forward(input).sub(target);
        loss = diff.square().mean().getFloat();
        if (step == 0) {
          firstLoss = loss;
        }
        student.backward(diff.mul(2f / diff.size()));
        student.update(0.5f);
      }
      assertTrue(firstLoss > 0.05, "starts far from the target: " + firstLoss);
      assertTrue(loss < 1e-3, "mean squared error after 500 steps: " + loss);
    }
  }
}
