package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.Conv32Model;
import dev.kiln.e2e.models.LeNet1632Model;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitResult;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two models of issue 8: with every trainable parameter a view of one array, oneDNN's in-place
 * weight reorder in inference passes corrupted them (zeros, then NaN, then a crash, or "We can't
 * generate TBlob for MKLDNN data" from evaluate).
 */
class OneDnnLayoutTest {
  @Test
  void repeatedInferenceOnAConvolutionGivesTheSameFiniteOutput() {
    try (Conv32Model m = Conv32Model.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] ones = new float[8 * 784];
      Arrays.fill(ones, 1f);
      NDArray x = nd.create(ones, new Shape(8, 1, 28, 28));
      float[] first = m.forward(x).toFloatArray();
      for (float v : first) {
        assertTrue(Float.isFinite(v) && v > 0, "softmax output " + v);
      }
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(first, m.forward(x).toFloatArray(), "forward " + (i + 2));
      }
      float[] weight = m.params().convWeight().get();
      m.forward(x);
      assertArrayEquals(weight, m.params().convWeight().get(), "inference changed the weight");
    }
  }

  @Test
  void leNetWithSixteenAndThirtyTwoFiltersTrainsEvaluatesAndPredicts() {
    Random r = new Random(3);
    int n = 96;
    float[] features = new float[n * 784];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = i % 10;
      for (int j = 0; j < 784; j++) {
        features[i * 784 + j] = r.nextFloat() * (j % 10 == labels[i] ? 1f : 0.2f);
      }
    }
    Dataset data = new Dataset(features, labels, 784, 10);
    try (LeNet1632Model m = LeNet1632Model.create(Init.xavier(), 1);
        Sgd sgd = new Sgd(0.05f);
        NDManager nd = NDManager.newBaseManager()) {
      FitResult fit = m.classifier().fit(DataLoader.of(data, 16).shuffled(1), data, 2, sgd);
      assertEquals(2, fit.epochs().size());
      Evaluation e = m.classifier().evaluate(data);
      assertTrue(Double.isFinite(e.loss()), "loss " + e.loss());
      int[] predicted = m.classifier().predict(data);
      float[] probs =
          m.forward(nd.create(Arrays.copyOf(features, 784), new Shape(1, 1, 28, 28)))
              .toFloatArray();
      int best = 0;
      for (int c = 1; c < 10; c++) {
        best = probs[c] > probs[best] ? c : best;
      }
      assertEquals(predicted[0], best, "per-image forward and predict agree");
      assertEquals(
          e.loss(),
          m.classifier().evaluate(data).loss(),
          1e-6,
          "evaluating twice gives the same loss");
    }
  }
}
