package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.LinearFitModel;
import dev.kiln.e2e.models.SquaredOutputModel;
import dev.kiln.listeners.ChartWriter;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.CsvLogger;
import dev.kiln.runtime.train.EarlyStopping;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.Score;
import dev.kiln.runtime.train.Trainer;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code trainer().fit / evaluate} of models whose only output is a loss head. */
class TrainerFitTest {
  /** {@code y0 = sin(x0) + x1·x2, y1 = x0 - 2·x2}, with Gaussian noise of deviation 0.05. */
  static Dataset curve(int n, long seed) {
    Random r = new Random(seed);
    float[] x = new float[n * 3];
    float[] y = new float[n * 2];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < 3; j++) {
        x[i * 3 + j] = (float) (r.nextDouble() * 2 - 1);
      }
      y[i * 2] =
          (float) (Math.sin(x[i * 3]) + x[i * 3 + 1] * x[i * 3 + 2] + 0.05 * r.nextGaussian());
      y[i * 2 + 1] = (float) (x[i * 3] - 2 * x[i * 3 + 2] + 0.05 * r.nextGaussian());
    }
    return Dataset.withTargets(x, 3, y, 2);
  }

  @Test
  void fitLearnsARegressionAndReportsTheMeanSquaredError(@TempDir Path dir) throws Exception {
    Dataset train = curve(4000, 1);
    Dataset test = curve(500, 2);
    try (LinearFitModel m = LinearFitModel.create(Init.xavier(), 3);
        Adam adam = Adam.builder().learningRate(0.01f).build();
        NDManager nd = NDManager.newBaseManager()) {
      assertTrue(m.hasTrainer());
      assertFalse(m.isClassifier());
      Trainer trainer = m.trainer();
      assertSame(trainer, m.fitter());
      assertEquals("mse", trainer.metric());
      assertEquals("[BATCH, 2]", trainer.targetShape().toString());
      Evaluation before = trainer.evaluate(test);
      FitResult r =
          trainer.fit(
              DataLoader.of(train, 50).shuffled(7),
              test,
              8,
              adam,
              new CsvLogger(dir.resolve("metrics.csv")),
              new ChartWriter(dir.resolve("chart.png")));
      assertNull(r.stopReason());
      assertEquals(8, r.epochs().size());
      Evaluation after = trainer.evaluate(test);
      assertEquals(r.last().validation(), after);
      // The noise alone has a mean squared error of 0.0025; the mean of the curve's is 0.6.
      assertTrue(before.metric() > 0.3, "before training " + before);
      assertTrue(after.metric() < 0.01, "after training " + after);
      // The loss is half the mean squared error (MXNet's LinearRegressionOutput, Gluon's L2Loss).
      assertEquals(after.metric() / 2, after.loss(), 1e-9);
      assertEquals("mse", after.metricName());
      // Read as a classifier's accuracy, the MSE is refused rather than passed off.
      IllegalStateException notAccuracy =
          assertThrows(IllegalStateException.class, after::accuracy);
      assertTrue(notAccuracy.getMessage().contains("this metric is mse"), notAccuracy.getMessage());
      assertThrows(IllegalStateException.class, () -> r.last().trainAccuracy());

      // The model's own forward gives the predictions the trainer scored.
      float[] y = m.forward(nd.create(test.features(), new Shape(test.size(), 3))).toFloatArray();
      double mse = 0;
      for (int i = 0; i < y.length; i++) {
        double d = y[i] - test.targets()[i];
        mse += d * d / y.length;
      }
      assertEquals(after.metric(), mse, 1e-5);

      List<String> csv = Files.readAllLines(dir.resolve("metrics.csv"));
      assertEquals("epoch,train_loss,train_mse,val_loss,val_mse,seconds", csv.get(0));
      assertEquals(9, csv.size());
      assertTrue(Files.size(dir.resolve("chart.png")) > 1000);
    }
  }

  @Test
  void aCustomLossTrainsThroughTheLossHeadAndItsGradientIsTheMeanOfTwoY(@TempDir Path dir) {
    Random rng = new Random(5);
    int n = 8;
    float[] x = new float[n * 4];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) rng.nextGaussian();
    }
    try (SquaredOutputModel m = SquaredOutputModel.create(Init.xavier(), 1);
        Sgd sgd = new Sgd(1f)) {
      Trainer trainer = m.trainer();
      assertEquals("loss", trainer.metric());
      assertNull(trainer.targetShape());
      float[] w = m.params().yWeight().get();
      float b = m.params().yBias().get()[0];
      double[] grad = new double[4];
      double loss = 0;
      for (int i = 0; i < n; i++) {
        double y = b;
        for (int j = 0; j < 4; j++) {
          y += w[j] * x[i * 4 + j];
        }
        loss += y * y;
        for (int j = 0; j < 4; j++) {
          grad[j] += 2 * y * x[i * 4 + j] / n;
        }
      }
      Score s = trainer.trainBatch(x, new float[0], n, sgd);
      assertEquals(loss, s.lossSum(), 1e-4);
      float[] after = m.params().yWeight().get();
      for (int j = 0; j < 4; j++) {
        assertEquals(w[j] - grad[j], after[j], 1e-5, "weight " + j);
      }

      // fit drives the loss towards zero, early stopping watching it.
      int[] unused = new int[200];
      float[] xs = new float[200 * 4];
      for (int i = 0; i < xs.length; i++) {
        xs[i] = (float) rng.nextGaussian();
      }
      Dataset data = new Dataset(xs, unused, 4, 1);
      try (Sgd small = new Sgd(0.05f)) {
        FitResult r = trainer.fit(DataLoader.of(data, 20), 30, small, new EarlyStopping(3, 1e-7));
        assertTrue(r.last().trainLoss() < 1e-3, "loss after fit " + r.last());
      }
    }
  }

  @Test
  void twoContextsTrainARegressionLikeOneOnTheWholeBatch() {
    Random r = new Random(3);
    try (LinearFitModel one = LinearFitModel.create(Init.xavier(), 4);
        LinearFitModel two = LinearFitModel.create(Init.xavier(), 4);
        Sgd a = new Sgd(0.1f);
        Sgd b = new Sgd(0.1f);
        DataParallel dp = DataParallel.local(two, 2)) {
      for (int step = 0; step < 5; step++) {
        int n = step == 4 ? 7 : 16;
        Dataset d = curve(n, 100 + step);
        Score whole = one.trainer().trainBatch(d.features(), d.targets(), n, a);
        Score split = dp.step(d.features(), d.targets(), n, b, n).score();
        assertEquals(whole.lossSum(), split.lossSum(), 1e-5, "loss of step " + step);
        assertEquals(whole.metricSum(), split.metricSum(), 1e-5, "metric of step " + step);
        assertArrayEquals(dp.replicaParameters(0), dp.replicaParameters(1), 0f);
        assertArrayEquals(
            one.params().hiddenWeight().get(), two.params().hiddenWeight().get(), 1e-5f);
        assertArrayEquals(one.params().yBias().get(), two.params().yBias().get(), 1e-5f);
      }
    }
  }

  @Test
  void mistakesAreRefusedWithWhatWasExpectedAndWhatCame() {
    try (LinearFitModel m = LinearFitModel.create(Init.xavier(), 1);
        FashionMlpModel mlp = FashionMlpModel.create(Init.xavier(), 1);
        Sgd sgd = new Sgd(0.1f)) {
      Dataset labelled = new Dataset(new float[6], new int[] {0, 1}, 3, 2);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.trainer().fit(DataLoader.of(labelled, 2), 1, sgd));
      assertTrue(e.getMessage().contains("make it with Dataset.withTargets"), e.getMessage());

      Dataset wide = Dataset.withTargets(new float[6], 3, new float[6], 3);
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.trainer().fit(DataLoader.of(wide, 2), 1, sgd));
      assertTrue(e.getMessage().contains("have 2 values per example"), e.getMessage());
      assertTrue(e.getMessage().contains("the dataset's have 3"), e.getMessage());

      UnsupportedOperationException u =
          assertThrows(UnsupportedOperationException.class, m::classifier);
      assertTrue(u.getMessage().contains("train it with trainer()"), u.getMessage());
      u = assertThrows(UnsupportedOperationException.class, mlp::trainer);
      assertTrue(u.getMessage().contains("train it with classifier()"), u.getMessage());
      assertTrue(u.getMessage().contains("@L2Loss Sym fit(Sym prediction)"), u.getMessage());
    }
  }
}
