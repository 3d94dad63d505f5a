package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.BatchNormOnlyModel;
import dev.kiln.e2e.models.DropHalfModel;
import dev.kiln.e2e.models.FrozenBaseModel;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Training versus inference mode, auxiliary states and frozen parameters, on real MXNet. */
class LayerSemanticsTest {
  private static float[] random(long seed, int n) {
    Random r = new Random(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return v;
  }

  @Test
  void creatingAModelDoesNotChangeAnotherModelsDropoutMasks() {
    try (DropHalfModel a = DropHalfModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      NDArray ones = nd.ones(new Shape(1, 1000));
      a.setTraining(true);
      Mx.seed(5);
      float[] first = a.forward(ones).toFloatArray();
      float[] second = a.forward(ones).toFloatArray();
      Mx.seed(5);
      assertArrayEquals(first, a.forward(ones).toFloatArray(), "the same seed, the same mask");
      DropHalfModel.create(Init.xavier(), 77).close();
      assertArrayEquals(
          second,
          a.forward(ones).toFloatArray(),
          "model A's second mask, although model B was created in between");
    }
  }

  @Test
  void dropoutZeroesAboutHalfAndDoublesTheRestInTrainingAndIsTheIdentityInInference() {
    try (DropHalfModel m = DropHalfModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] x = new float[4 * 1000];
      for (int i = 0; i < x.length; i++) {
        x[i] = 1 + i % 10;
      }
      NDArray input = nd.create(x, new Shape(4, 1000));
      assertArrayEquals(x, m.forward(input).toFloatArray(), 0f, "inference is the default");

      m.setTraining(true);
      float[] out = m.forward(input).toFloatArray();
      int zeros = 0;
      for (int i = 0; i < x.length; i++) {
        if (out[i] == 0f) {
          zeros++;
        } else {
          assertEquals(2 * x[i], out[i], 1e-5f, "kept values are scaled by 1 / (1 - 0.5)");
        }
      }
      double dropped = (double) zeros / x.length;
      assertTrue(dropped > 0.45 && dropped < 0.55, "fraction dropped: " + dropped);

      float[] grad = m.backward(nd.ones(new Shape(4, 1000))).x().toFloatArray();
      for (int i = 0; i < x.length; i++) {
        assertEquals(out[i] / x[i], grad[i], 1e-6f, "backward applies the forward's mask");
      }
      assertFalse(Arrays.equals(out, m.forward(input).toFloatArray()), "a new mask per pass");

      m.setTraining(false);
      assertArrayEquals(x, m.forward(input).toFloatArray(), 0f);
    }
  }

  @Test
  void batchNormUsesBatchStatisticsInTrainingAndTheMovingAveragesInInference() {
    try (BatchNormOnlyModel m = BatchNormOnlyModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] x = {1, 10, 2, 20, 3, 30, 6, 40};
      NDArray input = nd.create(x, new Shape(4, 2));
      float[] gamma = {2f, 0.5f};
      float[] beta = {1f, -1f};
      m.params().bnGamma().set(gamma);
      m.params().bnBeta().set(beta);
      assertArrayEquals(new float[] {0, 0}, m.params().bnMovingMean().get(), 0f);
      assertArrayEquals(new float[] {1, 1}, m.params().bnMovingVar().get(), 0f);

      // Inference with the initial moving averages (mean 0, variance 1) leaves no trace.
      float[] before = m.forward(input).toFloatArray();
      for (int i = 0; i < x.length; i++) {
        int c = i % 2;
        assertEquals(gamma[c] * x[i] / Math.sqrt(1 + 1e-5) + beta[c], before[i], 1e-4);
      }
      assertArrayEquals(new float[] {0, 0}, m.params().bnMovingMean().get(), 0f);

      m.setTraining(true);
      float[] out = m.forward(input).toFloatArray();
      double[] mean = new double[2];
      double[] var = new double[2];
      for (int i = 0; i < x.length; i++) {
        mean[i % 2] += x[i] / 4.0;
      }
      for (int i = 0; i < x.length; i++) {
        var[i % 2] += Math.pow(x[i] - mean[i % 2], 2) / 4.0;
      }
      for (int i = 0; i < x.length; i++) {
        int c = i % 2;
        assertEquals(
            gamma[c] * (x[i] - mean[c]) / Math.sqrt(var[c] + 1e-5) + beta[c],
            out[i],
            1e-4,
            "training normalises with the batch's mean and biased variance");
      }
      // MXNet 1.9.1 updates the moving averages in the backward pass of a training step.
      assertArrayEquals(new float[] {0, 0}, m.params().bnMovingMean().get(), 0f);
      m.backward(nd.ones(new Shape(4, 2)));
      // momentum 0.5: moving = 0.5 * moving + 0.5 * batch statistic
      float[] movingMean = m.params().bnMovingMean().get();
      float[] movingVar = m.params().bnMovingVar().get();
      for (int c = 0; c < 2; c++) {
        assertEquals(0.5 * mean[c], movingMean[c], 1e-4);
        assertEquals(0.5 + 0.5 * var[c], movingVar[c], 1e-3);
      }

      // Inference now uses the moving averages, also in an executor for another batch size.
      m.setTraining(false);
      float[] one = m.forward(nd.create(new float[] {1, 10}, new Shape(1, 2))).toFloatArray();
      for (int c = 0; c < 2; c++) {
        assertEquals(
            gamma[c] * (x[c] - movingMean[c]) / Math.sqrt(movingVar[c] + 1e-5) + beta[c],
            one[c],
            1e-4);
      }
      assertEquals(2, m.runtime().executorCount());

      // The moving averages are writable like parameters, and not trainable.
      m.params().bnMovingMean().set(new float[] {1, 10});
      m.params().bnMovingVar().set(new float[] {4, 4});
      float[] written = m.forward(nd.create(new float[] {1, 10}, new Shape(1, 2))).toFloatArray();
      assertArrayEquals(new float[] {beta[0], beta[1]}, written, 1e-6f);
      assertFalse(m.params().bnMovingMean().isTrainable());
      assertTrue(m.params().bnGamma().isTrainable());
      assertThrows(IllegalStateException.class, () -> m.params().bnMovingVar().grad());
    }
  }

  @Test
  void movingAveragesAreSavedAndLoadedWithTheParameters(@TempDir Path dir) {
    try (BatchNormOnlyModel m = BatchNormOnlyModel.create()) {
      m.params().bnMovingMean().set(new float[] {0.25f, -3f});
      m.params().bnMovingVar().set(new float[] {2f, 0.5f});
      m.params().bnGamma().set(new float[] {1.5f, 0.75f});
      m.save(dir.resolve("bn"));
      try (BatchNormOnlyModel loaded = BatchNormOnlyModel.load(dir.resolve("bn"))) {
        assertArrayEquals(new float[] {0.25f, -3f}, loaded.params().bnMovingMean().get(), 0f);
        assertArrayEquals(new float[] {2f, 0.5f}, loaded.params().bnMovingVar().get(), 0f);
        assertArrayEquals(new float[] {1.5f, 0.75f}, loaded.params().bnGamma().get(), 0f);
      }
    }
  }

  @Test
  void frozenParametersGetNoGradientAndNoUpdateWhileTheOthersTrain() {
    try (FrozenBaseModel m = FrozenBaseModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      float[] baseWeight = m.params().baseWeight().get();
      float[] headWeight = m.params().headWeight().get();
      assertFalse(m.params().baseWeight().isTrainable());
      assertTrue(m.params().headWeight().isTrainable());
      assertEquals(
          java.util.List.of("head_weight", "head_bias"),
          m.runtime().trainableSlots().stream().map(ParameterStore.Slot::name).toList());
      assertTrue(m.summary().contains("base   @Frozen @Dense(units = 3"), m.summary());

      NDArray x = nd.create(random(1, 5 * 4), new Shape(5, 4));
      m.setTraining(true);
      m.forward(x);
      float[] inputGrad = m.backward(nd.create(random(2, 10), new Shape(5, 2))).x().toFloatArray();
      assertTrue(norm(inputGrad) > 0, "gradients still flow through the frozen node");
      assertArrayEquals(new float[baseWeight.length], m.params().baseWeight().grad(), 0f);
      assertTrue(norm(m.params().headWeight().grad()) > 0);
      m.update(0.5f);
      assertArrayEquals(baseWeight, m.params().baseWeight().get(), 0f);
      assertFalse(Arrays.equals(headWeight, m.params().headWeight().get()));

      float[] headAfterUpdate = m.params().headWeight().get();
      try (Sgd sgd = new Sgd(0.5f)) {
        Classifier c = m.classifier();
        for (int step = 0; step < 5; step++) {
          c.trainBatch(random(3 + step, 8 * 4), new int[] {0, 1, 1, 0, 1, 0, 0, 1}, sgd);
        }
      }
      assertArrayEquals(
          baseWeight,
          m.params().baseWeight().get(),
          0f,
          "classifier training skips frozen parameters too");
      assertFalse(Arrays.equals(headAfterUpdate, m.params().headWeight().get()));
    }
  }

  private static double norm(float[] v) {
    double s = 0;
    for (float f : v) {
      s += f * f;
    }
    return Math.sqrt(s);
  }
}
