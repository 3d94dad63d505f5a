package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.listeners.ChartWriter;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.CsvLogger;
import dev.kiln.runtime.train.EarlyStopping;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code classifier().fit / evaluate / predict} and the built-in listeners. */
class ClassifierFitTest {
  /** Ten noisy Gaussian blobs in 784 dimensions, one per class. */
  static Dataset blobs(int n, long seed) {
    Random centres = new Random(42);
    float[][] c = new float[10][784];
    for (float[] row : c) {
      for (int j = 0; j < 784; j++) {
        row[j] = (float) centres.nextGaussian() * 0.5f;
      }
    }
    Random rng = new Random(seed);
    float[] x = new float[n * 784];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      y[i] = rng.nextInt(10);
      for (int j = 0; j < 784; j++) {
        x[i * 784 + j] = c[y[i]][j] + (float) rng.nextGaussian();
      }
    }
    return new Dataset(x, y, 784, 10);
  }

  @Test
  void fitTrainsTheModelsOwnParametersAndWritesCsvAndChart(@TempDir Path dir) throws Exception {
    Dataset train = blobs(2000, 1);
    Dataset test = blobs(500, 2);
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 3);
        Sgd sgd = new Sgd(0.05f);
        NDManager nd = NDManager.newBaseManager()) {
      Classifier clf = m.classifier();
      float[] before = m.params().hiddenWeight().get();
      FitResult r =
          clf.fit(
              DataLoader.of(train, 50).shuffled(7),
              test,
              3,
              sgd,
              new CsvLogger(dir.resolve("metrics.csv")),
              new ChartWriter(dir.resolve("chart.png")));
      assertNull(r.stopReason());
      assertEquals(3, r.epochs().size());
      assertTrue(r.last().trainLoss() < r.epochs().get(0).trainLoss());
      Evaluation eval = clf.evaluate(test);
      assertEquals(r.last().validation(), eval);
      assertTrue(eval.accuracy() > 0.95, "test accuracy " + eval);

      // The model itself was trained: its own forward agrees with the classifier's predictions.
      assertTrue(!Arrays.equals(before, m.params().hiddenWeight().get()));
      float[] probs = m.forward(nd.create(test.features(), new Shape(500, 784))).toFloatArray();
      int[] predicted = clf.predict(test);
      for (int i = 0; i < 500; i++) {
        int best = 0;
        for (int k = 1; k < 10; k++) {
          best = probs[i * 10 + k] > probs[i * 10 + best] ? k : best;
        }
        assertEquals(best, predicted[i], "example " + i);
      }

      List<String> csv = Files.readAllLines(dir.resolve("metrics.csv"));
      assertEquals("epoch,train_loss,train_accuracy,val_loss,val_accuracy,seconds", csv.get(0));
      assertEquals(4, csv.size());
      assertTrue(csv.get(3).startsWith("3,"), csv.get(3));
      byte[] png = Files.readAllBytes(dir.resolve("chart.png"));
      assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    }
  }

  @Test
  void theSameSeedGivesTheSameLossCurveAndParameters() {
    Dataset train = blobs(300, 4);
    double[][] curves = new double[2][];
    float[][] weights = new float[2][];
    for (int run = 0; run < 2; run++) {
      try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 11);
          Sgd sgd = new Sgd(0.05f)) {
        FitResult r = m.classifier().fit(DataLoader.of(train, 32).shuffled(5), 3, sgd);
        curves[run] = r.epochs().stream().mapToDouble(e -> e.trainLoss()).toArray();
        weights[run] = m.params().logitsWeight().get();
      }
    }
    assertArrayEquals(curves[0], curves[1], 0.0);
    assertArrayEquals(weights[0], weights[1], 0f);
  }

  @Test
  void nonFiniteLossStopsTrainingNamingEpochAndBatch() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      float[] w = m.params().logitsBias().get();
      w[3] = Float.NaN;
      m.params().logitsBias().set(w);
      FitResult r = m.classifier().fit(DataLoader.of(blobs(100, 1), 10), 5, sgd);
      assertTrue(
          r.stopReason()
              .startsWith(
                  "epoch 1, batch 1: FashionMlpModel: update 1 not applied (found as the "
                      + "model's next call began: the training step that applied it returned "
                      + "before its gradients were known): the gradient of "),
          r.stopReason());
      assertTrue(
          r.stopReason().contains(" is NaN; the parameters are those from before it"),
          r.stopReason());
      assertEquals(0, r.epochs().size());
      assertTrue(Float.isNaN(m.params().logitsBias().get()[3]), "the NaN came from the weights");
      assertFalse(Float.isNaN(m.params().hiddenWeight().get()[0]), "no update spread it");
    }
  }

  @Test
  void closingTheModelsClassifierIsHarmlessTheNextCallMakesANewOne() {
    Dataset data = blobs(60, 4);
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      double before;
      try (Classifier c = m.classifier()) {
        c.fit(DataLoader.of(data, 20), 1, sgd);
        before = c.evaluate(data).accuracy();
      }
      Classifier again = m.classifier();
      assertTrue(!again.isClosed(), "a new classifier");
      assertEquals(before, again.evaluate(data).accuracy(), 0.0, "over the same parameters");
    }
  }

  @Test
  void withoutTheGradientCheckANonFiniteLossStillStopsTraining() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      m.runtime().checkGradients(false);
      float[] w = m.params().logitsBias().get();
      w[3] = Float.NaN;
      m.params().logitsBias().set(w);
      FitResult r = m.classifier().fit(DataLoader.of(blobs(100, 1), 10), 5, sgd);
      assertTrue(r.stopReason().startsWith("loss is NaN at epoch 1, batch 1"), r.stopReason());
      assertEquals(0, r.epochs().size());
    }
  }

  @Test
  void earlyStoppingEndsARunThatStopsImproving() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(1e-9f)) {
      FitResult r =
          m.classifier().fit(DataLoader.of(blobs(100, 1), 50), 10, sgd, new EarlyStopping(2, 1e-3));
      assertEquals(3, r.epochs().size());
      assertTrue(r.stopReason().startsWith("no improvement for 2 epochs"), r.stopReason());
    }
  }

  @Test
  void datasetOfTheWrongWidthIsRejectedWithBothSizes() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      Dataset narrow = new Dataset(new float[20], new int[] {0, 1}, 10, 2);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.classifier().fit(DataLoader.of(narrow, 2), 1, sgd));
      assertEquals(
          "FashionMlpModel takes 784 features per example (input shape [BATCH, 784]), "
              + "the dataset has 10",
          e.getMessage());
    }
  }
}
