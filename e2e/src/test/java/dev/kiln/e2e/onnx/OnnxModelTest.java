package dev.kiln.e2e.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.train.Evaluation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Models that import an ONNX file when they compile ({@code @Imported(onnx = "lenet.onnx")}), as a
 * user's would: the whole file computes what ONNX Runtime computes once {@code loadImported} has
 * read its initializers, and a cut of it under a new head fine-tunes on Fashion-MNIST.
 */
class OnnxModelTest {
  private static final Path FILE = OnnxFixtures.DIR.resolve("lenet.onnx");
  private static final Path LSTM = OnnxFixtures.DIR.resolve("lstm.onnx");

  @Test
  void theFileIsWhatTheFixturesWrite() throws IOException {
    assertArrayEquals(OnnxFixtures.lenet(), Files.readAllBytes(FILE));
  }

  @Test
  void theImportedModelComputesWhatOnnxRuntimeDoes() throws Exception {
    Random rng = new Random(5);
    OnnxPeer.Input x = OnnxPeer.random(rng, 4, 1, 28, 28);
    List<float[]> expected = OnnxPeer.onnxRuntime(FILE, Map.of("input.1", x));
    try (OnnxLeNetModel m = OnnxLeNetModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(List.of(), m.loadImported(FILE));
      float[] actual =
          m.forward(nd.create(x.values(), new ai.djl.ndarray.types.Shape(4, 1, 28, 28)))
              .toFloatArray();
      assertArrayEquals(expected.get(0), actual, 1e-5f);
      assertArrayEquals(
          OnnxImportValues.initializer(FILE, "conv1.weight"), m.params().conv1Weight().get());
    }
  }

  @Test
  void theLstmFileIsWhatTheFixturesWrite() throws IOException {
    assertArrayEquals(OnnxFixtures.lstm(), Files.readAllBytes(LSTM));
  }

  @Test
  void anImportedLstmComputesWhatOnnxRuntimeDoes() throws Exception {
    Random rng = new Random(6);
    OnnxPeer.Input x = OnnxPeer.random(rng, 4, 6, 3);
    List<float[]> expected = OnnxPeer.onnxRuntime(LSTM, Map.of("x", x));
    try (OnnxSequenceModel m = OnnxSequenceModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      // The reshape's shape is folded when the model compiles; no node reads it as a tensor.
      assertEquals(List.of("flat"), m.loadImported(LSTM));
      float[] actual =
          m.forward(nd.create(x.values(), new ai.djl.ndarray.types.Shape(4, 6, 3))).toFloatArray();
      assertArrayEquals(expected.get(0), actual, 1e-5f);
    }
  }

  @Test
  void aCutOfTheFileFineTunesOnFashionMnist() throws IOException {
    FashionMnist data = FashionMnist.load();
    try (OnnxFineTunedModel m = OnnxFineTunedModel.create(Init.xavier(), 7);
        Adam adam = new Adam(1e-3f)) {
      assertEquals(List.of("fc3.weight", "fc3.bias"), m.loadImported(FILE));
      m.classifier().fit(DataLoader.of(data.train().first(12_000), 64).shuffled(3), 1, adam);
      Evaluation e = m.classifier().evaluate(data.test());
      System.out.println(
          "ONNX LeNet fine-tuned 1 epoch on 12,000 images: test accuracy " + e.accuracy());
      assertTrue(e.accuracy() > 0.75, () -> "accuracy " + e.accuracy());
    }
  }
}
