package dev.kiln.e2e.imported;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.io.MxnetFiles;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An imported graph cut at a named node, inside a model of Kiln's with a head of its own: the
 * weights of the whole published file load (its cut-away head skipped), the cut computes what
 * MXNet's executor computes at that node, and the imported layers are frozen or trained as the
 * model says.
 */
class FineTuneTest {
  @TempDir Path dir;

  /** LeNet's published weights (all of them, its classifier too), saved by MXNet, by name. */
  private Map<String, float[]> publish(Path file) {
    Map<String, float[]> arrays = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    List<dev.kiln.runtime.graph.Shape> shapes = new ArrayList<>();
    Random r = new Random(23);
    try (ImportedLeNetModel whole = ImportedLeNetModel.create()) {
      for (Parameter p : whole.params().parameters()) {
        float[] v = new float[p.get().length];
        for (int i = 0; i < v.length; i++) {
          v[i] = (float) (0.2 * r.nextGaussian());
        }
        arrays.put(p.name(), v);
        keys.add("arg:" + p.name());
        shapes.add(p.shape());
      }
    }
    MxnetFiles.save(file, keys, shapes, new ArrayList<>(arrays.values()));
    return arrays;
  }

  @Test
  void theCutLoadsThePublishedWeightsAndComputesWhatMxnetDoesAtThatNode() throws IOException {
    Path file = dir.resolve("lenet-0000.params");
    Map<String, float[]> published = publish(file);
    try (FineTunedLeNetModel model = FineTunedLeNetModel.create(Init.xavier(), 5);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(List.of("fc2_weight", "fc2_bias"), model.loadImported(file));
      assertArrayEquals(published.get("fc1_weight"), model.params().fc1Weight().get());
      float[] w = model.params().logitsWeight().get();
      float[] b = model.params().logitsBias().get();

      int n = 3;
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(n, 1, 28, 28));
      float[] probs = model.forward(x).toFloatArray();
      String json =
          Files.readString(SymbolFiles.DIR.resolve("lenet-symbol.json"), StandardCharsets.UTF_8);
      float[] features =
          MxnetReference.forward(
              json, "tanh3_output", published, "data", new int[] {n, 1, 28, 28}, x.toFloatArray());
      assertEquals(n * 500, features.length);
      float[] expected = new float[n * 4];
      for (int i = 0; i < n; i++) {
        double sum = 0;
        double[] z = new double[4];
        for (int c = 0; c < 4; c++) {
          z[c] = b[c];
          for (int k = 0; k < 500; k++) {
            z[c] += w[c * 500 + k] * features[i * 500 + k];
          }
          sum += Math.exp(z[c]);
        }
        for (int c = 0; c < 4; c++) {
          expected[i * 4 + c] = (float) (Math.exp(z[c]) / sum);
        }
      }
      assertArrayEquals(expected, probs, 1e-5f);
    }
  }

  @Test
  void frozenImportedLayersStayWhileTheHeadLearns() throws IOException {
    Path file = dir.resolve("lenet-0000.params");
    publish(file);
    try (FineTunedLeNetModel frozen = FineTunedLeNetModel.create(Init.xavier(), 5);
        RetrainedLeNetModel trained = RetrainedLeNetModel.create(Init.xavier(), 5)) {
      frozen.loadImported(file);
      trained.loadImported(file);
      assertTrue(frozen.params().conv1Weight().isTrainable() == false);
      assertTrue(trained.params().conv1Weight().isTrainable());
      float[] conv = frozen.params().conv1Weight().get();
      float[] head = frozen.params().logitsWeight().get();
      train(frozen);
      train(trained);
      assertArrayEquals(conv, frozen.params().conv1Weight().get());
      assertFalse(java.util.Arrays.equals(head, frozen.params().logitsWeight().get()));
      assertFalse(java.util.Arrays.equals(conv, trained.params().conv1Weight().get()));
    }
  }

  /** A few steps of classifier training on random images. */
  private static void train(KilnModel model) {
    Random r = new Random(4);
    Classifier c = model.classifier();
    try (Sgd sgd = new Sgd(0.1f)) {
      for (int step = 0; step < 3; step++) {
        float[] x = new float[8 * 784];
        int[] y = new int[8];
        for (int i = 0; i < x.length; i++) {
          x[i] = (float) r.nextGaussian();
        }
        for (int i = 0; i < y.length; i++) {
          y[i] = r.nextInt(4);
        }
        c.trainBatch(x, y, sgd);
      }
    }
  }
}
