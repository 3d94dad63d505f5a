package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.BranchesModel;
import dev.kiln.e2e.models.SignalPoolsModel;
import dev.kiln.e2e.models.TwoHeadsModel;
import dev.kiln.runtime.Init;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the generated model promises: shared parameters, accumulation, modes, errors, close. */
class ModelSemanticsTest {
  private static float[] random(long seed, int n) {
    Random r = new Random(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextFloat();
    }
    return v;
  }

  @Test
  void executorsOfEveryBatchSizeShareOneSetOfParameters() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] x = random(1, 8 * 784);
      NDArray batch = nd.create(x, new Shape(8, 784));
      m.setTraining(true);
      NDArray before = m.forward(batch);
      m.backward(nd.create(random(2, 80), new Shape(8, 10)));
      m.update(0.5f);
      m.setTraining(false);

      NDArray fresh = m.forward(batch);
      NDArray one = m.forward(nd.create(Arrays.copyOf(x, 784), new Shape(1, 784)));
      assertEquals(2, m.runtime().executorCount());
      assertArrayEquals(Arrays.copyOf(fresh.toFloatArray(), 10), one.toFloatArray(), 1e-6f);
      assertFalse(
          Arrays.equals(Arrays.copyOf(before.toFloatArray(), 10), one.toFloatArray()),
          "the update must be visible to the batch-1 executor");
    }
  }

  @Test
  void twoBackwardsThenUpdateEqualOneBackwardWithDoubledHead() {
    try (BranchesModel twice = BranchesModel.create(Init.xavier(), 9);
        BranchesModel once = BranchesModel.create(Init.xavier(), 9);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray a = nd.create(random(3, 12), new Shape(3, 4));
      NDArray b = nd.create(random(4, 12), new Shape(3, 4));
      float[] head = random(5, 9);
      float[] doubled = head.clone();
      for (int i = 0; i < doubled.length; i++) {
        doubled[i] *= 2;
      }
      twice.setTraining(true);
      twice.forward(a, b);
      twice.backward(nd.create(head, new Shape(3, 3)));
      twice.forward(a, b);
      twice.backward(nd.create(head, new Shape(3, 3)));
      twice.update(0.1f);
      once.setTraining(true);
      once.forward(a, b);
      once.backward(nd.create(doubled, new Shape(3, 3)));
      once.update(0.1f);
      assertArrayEquals(
          once.params().innerWeight().get(), twice.params().innerWeight().get(), 1e-6f);
      assertArrayEquals(
          once.params().scoresWeight().get(), twice.params().scoresWeight().get(), 1e-6f);
      assertArrayEquals(
          new float[3], once.params().scoresBias().grad(), 0f, "update zeroes the gradients");
    }
  }

  @Test
  void inputGradientsAreThoseOfOneBackwardOnly() {
    try (BranchesModel m = BranchesModel.create(Init.xavier(), 9);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray a = nd.create(random(3, 12), new Shape(3, 4));
      NDArray b = nd.create(random(4, 12), new Shape(3, 4));
      NDArray head = nd.create(random(5, 9), new Shape(3, 3));
      m.setTraining(true);
      m.forward(a, b);
      float[] first = m.backward(head).a().toFloatArray();
      m.forward(a, b);
      float[] second = m.backward(head).a().toFloatArray();
      assertArrayEquals(first, second, 1e-6f);
    }
  }

  @Test
  void severalOutputsComeBackAsARecordInDeclarationOrder() {
    try (TwoHeadsModel m = TwoHeadsModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      TwoHeadsModel.Outputs out = m.forward(nd.create(random(6, 12), new Shape(2, 3, 2)));
      assertEquals(new Shape(2, 5), out.features().getShape());
      assertEquals(new Shape(2, 5), out.gate().getShape());
      assertEquals(new Shape(2, 2), out.score().getShape());
      float[] f = out.features().toFloatArray();
      float[] g = out.gate().toFloatArray();
      for (int i = 0; i < f.length; i++) {
        assertEquals(1 / (1 + Math.exp(-f[i])), g[i], 1e-6);
      }
    }
  }

  @Test
  void wrongInputShapeNamesTheInputAndBothShapes() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> m.forward(nd.zeros(new Shape(4, 28, 28))));
      assertEquals(
          "FashionMlpModel input 'pixels': expected shape [BATCH, 784], got [4, 28, 28] (rank 3, not"
              + " 2)",
          e.getMessage());
    }
  }

  @Test
  void backwardAfterAnInferenceForwardSaysHowToFixIt() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      m.forward(nd.zeros(new Shape(2, 784)));
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> m.backward(nd.zeros(new Shape(2, 10))));
      assertTrue(e.getMessage().contains("call setTraining(true) before forward"), e.getMessage());
    }
  }

  @Test
  void useAfterCloseIsAnIllegalStateNamingTheModel() {
    FashionMlpModel m = FashionMlpModel.create();
    m.close();
    try (NDManager nd = NDManager.newBaseManager()) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> m.forward(nd.zeros(new Shape(1, 784))));
      assertEquals("FashionMlpModel is closed", e.getMessage());
      assertThrows(IllegalStateException.class, () -> m.params().hiddenWeight().get());
      m.close();
    }
  }

  @Test
  void sameSeedSameParametersAndSaveLoadRoundTrip(@TempDir Path dir) throws Exception {
    try (FashionMlpModel a = FashionMlpModel.create(Init.xavier(), 7);
        FashionMlpModel b = FashionMlpModel.create(Init.xavier(), 7);
        FashionMlpModel c = FashionMlpModel.create(Init.xavier(), 8)) {
      assertArrayEquals(a.params().hiddenWeight().get(), b.params().hiddenWeight().get(), 0f);
      assertFalse(Arrays.equals(a.params().hiddenWeight().get(), c.params().hiddenWeight().get()));
      a.params().logitsBias().set(random(8, 10));
      a.save(dir.resolve("mlp"));
      assertTrue(Files.readString(dir.resolve("mlp-symbol.json")).contains("\"hidden_weight\""));
      try (FashionMlpModel loaded = FashionMlpModel.load(dir.resolve("mlp"))) {
        assertArrayEquals(
            a.params().hiddenWeight().get(), loaded.params().hiddenWeight().get(), 0f);
        assertArrayEquals(a.params().logitsBias().get(), loaded.params().logitsBias().get(), 0f);
      }
    }
  }

  @Test
  void summaryListsEveryNodeWithShapesAndParameterCounts() {
    try (FashionMlpModel m = FashionMlpModel.create()) {
      String s = m.summary();
      assertTrue(s.contains("hidden  @Dense(units = 128, activation = Act.RELU)"), s);
      assertTrue(s.contains("[BATCH, 128]  100480"), s);
      // FLOPs per example: 2·784·128 multiply-adds + 128 bias + 128 ReLU = 200,960.
      assertTrue(s.contains("100480   201.0 K   512 B"), s);
      assertTrue(
          s.lines()
              .anyMatch(
                  l ->
                      l.startsWith("total")
                          && l.contains("101770")
                          && l.endsWith("203.6 K  3728 B")),
          s);
    }
  }

  @Test
  void poolsLrnAndPReluAreInTheSummaryAndTheSlopesInTheCheckpoint(@TempDir Path dir) {
    try (SignalPoolsModel m = SignalPoolsModel.create()) {
      String s = m.summary();
      // FLOPs per example: 2 per value for the PReLU, 3 reads per pooled value, (2·3 + 4) per
      // value for the LRN, one read per value for the global max.
      assertTrue(
          s.contains(
              "act     @PRelu                                  [BATCH, 4, 12]         4        96"),
          s);
      assertTrue(
          s.contains(
              "max     @MaxPool(kernel = 3, stride = 2,        [BATCH, 4, 6]          0        72"),
          s);
      assertTrue(
          s.contains(
              "avg     @AvgPool(kernel = 3, stride = 2,        [BATCH, 4, 3]          0        36"),
          s);
      assertTrue(s.contains("convention = PoolConvention.FULL)"), s);
      assertTrue(
          s.contains(
              "norm    @Lrn(size = 3, alpha = 0.5, k = 1.0)    [BATCH, 4, 3, 1]       0       120"),
          s);
      assertTrue(
          s.contains(
              "peak    @GlobalMaxPool                          [BATCH, 4, 1, 1]       0        12"),
          s);
      assertArrayEquals(new float[] {0.25f, 0.25f, 0.25f, 0.25f}, m.params().actAlpha().get(), 0f);
      m.params().actAlpha().set(new float[] {0.1f, 0.2f, 0.3f, 0.4f});
      m.save(dir.resolve("slopes"));
      try (SignalPoolsModel loaded = SignalPoolsModel.load(dir.resolve("slopes"))) {
        assertArrayEquals(
            new float[] {0.1f, 0.2f, 0.3f, 0.4f}, loaded.params().actAlpha().get(), 0f);
      }
    }
  }

  @Test
  void everyTrainableParameterIsAViewOfOneArrayThatOneUpdateSteps() {
    try (FashionMlpModel m = FashionMlpModel.create()) {
      var fused = m.runtime().updateSlots();
      assertEquals(1, fused.size());
      assertEquals(dev.kiln.runtime.graph.Shape.of(101_770), fused.get(0).weight().shape());
      float[] bias = new float[10];
      bias[7] = 42f;
      m.params().logitsBias().set(bias);
      float[] all = fused.get(0).weight().toFloatArray();
      // MXNet's argument order: hidden_weight, hidden_bias, logits_weight, logits_bias.
      assertEquals(42f, all[100_480 + 1280 + 7], 0f);
    }
  }
}
