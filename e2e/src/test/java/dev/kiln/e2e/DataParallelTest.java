package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.e2e.models.LeNet1632Model;
import dev.kiln.e2e.models.UpConvModel;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.mxnet.HandleCounter;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.Score;
import dev.kiln.runtime.train.Supervised;
import dev.kiln.sample.models.FashionMlpModel;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Data-parallel training on several CPU contexts of one process through MXNet's {@code local}
 * key-value store: every replica holds the same parameters after every step, and they are those of
 * one context trained on the whole batch.
 */
class DataParallelTest {
  private static float[] random(Random r, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextFloat();
    }
    return v;
  }

  @Test
  void twoContextsTrainLikeOneOnTheWholeBatch() {
    Random r = new Random(1);
    try (FashionMlpModel one = FashionMlpModel.create(Init.xavier(), 3);
        FashionMlpModel two = FashionMlpModel.create(Init.xavier(), 3);
        Sgd a = new Sgd(0.2f);
        Sgd b = new Sgd(0.2f);
        DataParallel dp = DataParallel.local(two, 2)) {
      assertEquals(2, dp.contexts());
      for (int step = 0; step < 6; step++) {
        int n = step == 5 ? 7 : 16; // an odd batch splits 3 + 4
        float[] x = random(r, n * 784);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
          y[i] = r.nextInt(10);
        }
        Classifier.Result whole = one.classifier().trainBatch(x, y, a);
        Score split = dp.step(x, y, b, n).score();
        assertEquals(whole.lossSum(), split.lossSum(), 1e-4, "loss of step " + step);
        assertEquals(whole.correct(), split.metricSum(), 0.0);
        assertArrayEquals(
            dp.replicaParameters(0),
            dp.replicaParameters(1),
            0f,
            "the replicas after step " + step);
        float[] expected = one.params().hiddenWeight().get();
        float[] actual = two.params().hiddenWeight().get();
        for (int i = 0; i < expected.length; i++) {
          assertEquals(expected[i], actual[i], 2e-6, "hidden_weight[" + i + "] after step " + step);
        }
      }
    }
  }

  @Test
  void aStagedBatchRunsOnlyOnTheClassifierThatStagedItAndGivesTheSameGradient() {
    Random r = new Random(4);
    float[] x = random(r, 8 * 784);
    int[] y = {0, 1, 2, 3, 4, 5, 6, 7};
    try (FashionMlpModel staged = FashionMlpModel.create(Init.xavier(), 9);
        FashionMlpModel direct = FashionMlpModel.create(Init.xavier(), 9)) {
      Supervised.Staged batch = staged.classifier().stage(x, y);
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class, () -> direct.classifier().computeGradients(batch));
      assertTrue(e.getMessage().contains("staged by another classifier"), e.getMessage());
      Score a = staged.classifier().computeGradients(batch).score();
      Score b = direct.classifier().computeGradients(x, y).score();
      assertEquals(b.lossSum(), a.lossSum(), 0.0);
      assertArrayEquals(
          direct.params().hiddenWeight().grad(), staged.params().hiddenWeight().grad(), 0f);
    }
  }

  @Test
  void fitOnTwoContextsEqualsFitOnOne() {
    Dataset train = ClassifierFitTest.blobs(300, 2);
    Dataset test = ClassifierFitTest.blobs(100, 3);
    FitResult single;
    float[] expected;
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 5);
        Adam adam = new Adam(1e-3f)) {
      single = m.classifier().fit(DataLoader.of(train, 32).shuffled(1), test, 2, adam);
      expected = m.params().logitsWeight().get();
    }
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 5);
        Adam adam = new Adam(1e-3f);
        DataParallel dp = DataParallel.local(m, 2)) {
      FitResult r = dp.fit(DataLoader.of(train, 32).shuffled(1), test, 2, adam);
      assertEquals(2, r.epochs().size());
      for (int e = 0; e < 2; e++) {
        assertEquals(single.epochs().get(e).trainLoss(), r.epochs().get(e).trainLoss(), 1e-4);
        assertEquals(
            single.epochs().get(e).validation().loss(),
            r.epochs().get(e).validation().loss(),
            1e-4);
      }
      assertArrayEquals(expected, m.params().logitsWeight().get(), 1e-4f);
    }
  }

  /**
   * A transposed convolution's weight is an array of its own beside the fused parameters: the store
   * exchanges it under a key of its own, so both replicas and the one-context model agree.
   */
  @Test
  void aParameterWithAnArrayOfItsOwnTrainsOnTwoContextsLikeOnOne() {
    Random r = new Random(2);
    try (UpConvModel one = UpConvModel.create(Init.xavier(), 3);
        UpConvModel two = UpConvModel.create(Init.xavier(), 3);
        Sgd a = new Sgd(0.1f);
        Sgd b = new Sgd(0.1f);
        DataParallel dp = DataParallel.local(two, 2)) {
      assertEquals(2, two.runtime().updateSlots().size());
      float[] initial = two.params().upWeight().get();
      for (int step = 0; step < 4; step++) {
        int n = 9;
        float[] x = random(r, n * 784);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
          y[i] = r.nextInt(10);
        }
        Classifier.Result whole = one.classifier().trainBatch(x, y, a);
        Score split = dp.step(x, y, b, n).score();
        assertEquals(whole.lossSum(), split.lossSum(), 1e-4, "loss of step " + step);
        assertArrayEquals(dp.replicaParameters(0), dp.replicaParameters(1), 0f);
        assertArrayEquals(
            one.params().upWeight().get(), two.params().upWeight().get(), 2e-6f, "step " + step);
        assertArrayEquals(one.params().downWeight().get(), two.params().downWeight().get(), 2e-6f);
      }
      assertTrue(
          !java.util.Arrays.equals(initial, two.params().upWeight().get()), "the weight trained");
    }
  }

  @Test
  void aConvNetWithBatchNormTrainsOnTwoContextsAndFreesItsReplicas() {
    Dataset train = ClassifierFitTest.blobs(400, 2);
    Dataset test = ClassifierFitTest.blobs(200, 3);
    long before = HandleCounter.live();
    try (LeNet1632Model m = LeNet1632Model.create(Init.xavier(), 5);
        Adam adam = new Adam(3e-3f)) {
      try (DataParallel dp = DataParallel.local(m, 2)) {
        FitResult r = dp.fit(DataLoader.of(train, 32).shuffled(1), test, 3, adam);
        assertEquals(3, r.epochs().size());
        assertTrue(
            r.last().validation().accuracy() > 0.4,
            "accuracy "
                + r.last().validation().accuracy()
                + " after 3 epochs on 10 separable classes");
        assertArrayEquals(dp.replicaParameters(0), dp.replicaParameters(1), 0f);
      }
      float[] mean = m.params().bn1MovingMean().get();
      assertTrue(
          java.util.Arrays.stream(toDouble(mean)).anyMatch(v -> v != 0),
          "the moving averages were trained and averaged back");
      assertTrue(m.classifier().evaluate(test).accuracy() > 0.4, "the model itself is trained");
    }
    assertEquals(before, HandleCounter.live(), "the replicas and the store were freed");
  }

  private static double[] toDouble(float[] v) {
    double[] d = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      d[i] = v[i];
    }
    return d;
  }
}
