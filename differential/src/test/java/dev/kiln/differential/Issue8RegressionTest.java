package dev.kiln.differential;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios of issue 8 on its two models, and the frozen-weight write that failed on the way to
 * its fix, beyond the generic checks the differential suite runs on the same sources (they are kept
 * under {@code regressions/}): while every trainable parameter was a view of one array, oneDNN's
 * in-place weight reorder in inference passes corrupted the others.
 */
class Issue8RegressionTest {
  @TempDir Path dir;

  @Test
  void repeatedInferenceOnABatchOfOnesIsExactFiniteAndLeavesTheWeightsAlone() {
    ModelCase c = Regressions.get("Issue8Conv32");
    ModelCompiler.Compiled compiled = ModelCompiler.compile(c);
    try (DiffModel m = DiffModel.create(compiled.loader(), c.modelInterface(), "xavier", 0);
        NDManager nd = NDManager.newBaseManager()) {
      float[] ones = new float[8 * 784];
      Arrays.fill(ones, 1f);
      Feeds.Arrays x = new Feeds.Arrays(new float[][] {ones}, new int[][] {{8, 1, 28, 28}});
      float[] weights = m.param("logits_weight");
      float[] conv = m.param("conv_weight");
      float[] first = Feeds.forward(m, nd, x).values()[0];
      for (float v : first) {
        assertTrue(Float.isFinite(v) && v > 0 && v < 1, "softmax output " + v);
      }
      for (int i = 2; i <= 10; i++) {
        assertArrayEquals(first, Feeds.forward(m, nd, x).values()[0], "forward " + i);
      }
      assertArrayEquals(conv, m.param("conv_weight"), "inference changed the convolution weight");
      assertArrayEquals(weights, m.param("logits_weight"), "inference changed the dense weight");
    }
  }

  @Test
  void leNetWithSixteenAndThirtyTwoFiltersFitsEvaluatesPredictsAndForwardsPerImage() {
    ModelCase c = Regressions.get("Issue8LeNet1632");
    ModelCompiler.Compiled compiled = ModelCompiler.compile(c);
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
    try (DiffModel m = DiffModel.create(compiled.loader(), c.modelInterface(), "xavier", 1);
        NDManager nd = NDManager.newBaseManager()) {
      double[][] epochs = m.fitClassifier(features, labels, 784, 16, 3, 0.05f, 1);
      assertEquals(3, epochs.length);
      for (double[] e : epochs) {
        assertTrue(Double.isFinite(e[0]) && Double.isFinite(e[1]), Arrays.toString(e));
      }
      double[] eval = m.evaluateClassifier(features, labels, 784);
      assertTrue(Double.isFinite(eval[0]), "loss " + eval[0]);
      assertEquals(epochs[2][1], eval[0], 1e-6, "evaluate gives fit's last validation loss");
      assertEquals(
          eval[0],
          m.evaluateClassifier(features, labels, 784)[0],
          1e-9,
          "evaluating twice gives the same loss");
      assertTrue(
          epochs[2][0] < epochs[0][0], "training loss falls: " + Arrays.deepToString(epochs));
      int[] predicted = m.predictClassifier(features, labels, 784);
      for (int i = 0; i < n; i++) {
        float[] image = Arrays.copyOfRange(features, i * 784, (i + 1) * 784);
        float[] probs =
            Feeds.forward(
                    m, nd, new Feeds.Arrays(new float[][] {image}, new int[][] {{1, 1, 28, 28}}))
                .values()[0];
        int best = 0;
        for (int k = 1; k < 10; k++) {
          best = probs[k] > probs[best] ? k : best;
        }
        assertEquals(predicted[i], best, "image " + i + ": per-image forward and predict agree");
      }
    }
  }

  @Test
  void frozenConvolutionWeightsCanBeWrittenAndLoadedAfterInference() throws Exception {
    ModelCase c = Regressions.get("FrozenConvWrite");
    ModelCompiler.Compiled compiled = ModelCompiler.compile(c);
    Random r = new Random(7);
    float[] image = new float[2 * 3 * 12 * 12];
    for (int i = 0; i < image.length; i++) {
      image[i] = (float) r.nextGaussian();
    }
    Feeds.Arrays x = new Feeds.Arrays(new float[][] {image}, new int[][] {{2, 3, 12, 12}});
    try (DiffModel m = DiffModel.create(compiled.loader(), c.modelInterface(), "xavier", 2);
        DiffModel fresh = DiffModel.create(compiled.loader(), c.modelInterface(), "xavier", 2);
        NDManager nd = NDManager.newBaseManager()) {
      assertTrue(m.isFrozen("conv_weight"));
      float[] before = Feeds.forward(m, nd, x).values()[0];
      float[] saved = m.param("conv_weight");
      float[] changed = saved.clone();
      for (int i = 0; i < changed.length; i++) {
        changed[i] = changed[i] * -0.5f + 0.01f;
      }
      // oneDNN has rewritten the frozen weight into its blocked layout by now.
      m.setParamTyped("convWeight", changed);
      assertArrayEquals(changed, m.param("conv_weight"), "the write reads back");
      float[] after = Feeds.forward(m, nd, x).values()[0];
      fresh.setParamTyped("convWeight", changed);
      assertArrayEquals(
          Feeds.forward(fresh, nd, x).values()[0],
          after,
          "after the write the model computes what a model given these weights before any "
              + "inference computes");
      assertFalse(Arrays.equals(before, after), "the write changed the output");

      Path prefix = dir.resolve("frozen");
      fresh.setParamTyped("convWeight", saved);
      fresh.save(prefix);
      assertTrue(Files.exists(dir.resolve("frozen-0000.params")));
      m.loadParams(prefix);
      assertArrayEquals(saved, m.param("conv_weight"), "load wrote the frozen weight");
      assertArrayEquals(
          before,
          Feeds.forward(m, nd, x).values()[0],
          "after loading the first weights the first outputs come back");
      assertNull(Compare.finite(after));
    }
  }
}
