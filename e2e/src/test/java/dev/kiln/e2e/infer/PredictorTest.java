package dev.kiln.e2e.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.infer.FusedNode;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.mxnet.WriteFence;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inference-only predictors: fused and unfused against the model's own forward, and on disk. */
class PredictorTest {
  static float[] pixels(Random rng, int n) {
    float[] x = new float[n * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat();
    }
    return x;
  }

  /** The model's own inference-mode forward on {@code x}, as a flat array. */
  static float[] forward(KilnModel m, float[] x, int n, long... exampleShape) {
    long[] shape = new long[exampleShape.length + 1];
    shape[0] = n;
    System.arraycopy(exampleShape, 0, shape, 1, exampleShape.length);
    try (NDManager nd = NDManager.newBaseManager()) {
      NDArray in = nd.create(x, new Shape(shape));
      return m.forward(new NDList(in)).get(0).toFloatArray();
    }
  }

  static void assertClose(float[] expected, float[] actual, double rel, String what) {
    assertEquals(expected.length, actual.length, what);
    for (int i = 0; i < expected.length; i++) {
      double tol = rel * Math.max(1e-3, Math.abs(expected[i]));
      assertTrue(
          Math.abs(expected[i] - actual[i]) <= tol,
          what + " at " + i + ": expected " + expected[i] + ", got " + actual[i]);
    }
  }

  /** Trains a LeNet a few steps so that its batch norms have moving averages of their own. */
  static FashionLeNetModel trainedLeNet(Random rng) {
    FashionLeNetModel m = FashionLeNetModel.create(Init.xavier(), 5);
    try (Sgd sgd = new Sgd(0.05f)) {
      for (int s = 0; s < 5; s++) {
        int[] y = new int[16];
        for (int i = 0; i < y.length; i++) {
          y[i] = rng.nextInt(10);
        }
        m.classifier().trainBatch(pixels(rng, y.length), y, sgd);
      }
    }
    return m;
  }

  /**
   * Each batch is written straight into the executor's input behind a write fence queued after the
   * previous pass (issue 25): twenty different batches in a row give, to the bit, what a predictor
   * copying them in with MXNet's synchronous copy gives ({@code -Dkiln.inputFence=false} when its
   * executors bind).
   */
  @Test
  void batchesWrittenBehindAFenceGiveWhatSynchronousCopiesGive() {
    Random rng = new Random(4);
    String before = System.getProperty(WriteFence.SWITCH);
    try (FashionLeNetModel m = trainedLeNet(rng);
        Predictor fenced = m.predictor()) {
      // Executors bind on a batch size's first call and read the switch then.
      fenced.predict(1, pixels(rng, 1));
      fenced.predict(8, pixels(rng, 8));
      System.setProperty(WriteFence.SWITCH, "false");
      try (Predictor sync = m.predictor()) {
        for (int k = 0; k < 20; k++) {
          int n = k % 3 == 0 ? 1 : 8;
          float[] x = pixels(rng, n);
          float[] want = sync.predict(n, x)[0];
          float[] got = fenced.predict(n, x)[0];
          for (int i = 0; i < want.length; i++) {
            assertEquals(
                Float.floatToIntBits(want[i]),
                Float.floatToIntBits(got[i]),
                "batch " + k + ", " + i);
          }
        }
      } finally {
        if (before == null) {
          System.clearProperty(WriteFence.SWITCH);
        } else {
          System.setProperty(WriteFence.SWITCH, before);
        }
      }
    }
  }

  @Test
  void fusedLeNetMatchesTheModelsForwardAndFusesEachPaddedConvolutionWithItsBatchNormAndReLU() {
    Random rng = new Random(1);
    try (FashionLeNetModel m = trainedLeNet(rng);
        Predictor fused = m.predictor();
        Predictor plain = m.predictor(InferenceOptions.unfused())) {
      for (int n : new int[] {1, 7, 64}) {
        float[] x = pixels(rng, n);
        float[] expected = forward(m, x, n, 1, 28, 28);
        assertClose(expected, plain.predict(n, x)[0], 1e-6, "unfused, batch " + n);
        assertClose(expected, fused.predict(n, x)[0], 1e-5, "fused, batch " + n);
      }
      List<FusedNode> nodes = fused.fusion();
      System.out.println("LeNet fusion: " + nodes);
      assertTrue(plain.fusion().isEmpty());
      // The LeNet's convolutions (20 and 50 filters) are padded to 32 and 64 (ChannelPadding), so
      // each runs on a blocked kernel fused with its batch norm and its ReLU.
      assertEquals(
          "[conv1: 20 filters run as 32, conv2: 50 filters run as 64]", fused.padding() + "");
      assertTrue(
          nodes.stream().anyMatch(f -> f.nodes().equals(List.of("conv1", "bn1", "relu1"))),
          nodes.toString());
      assertTrue(
          nodes.stream().anyMatch(f -> f.nodes().equals(List.of("conv2", "bn2", "relu2"))),
          nodes.toString());
      assertTrue(
          nodes.stream().anyMatch(f -> f.nodes().equals(List.of("hidden", "hidden_relu"))),
          nodes.toString());
      assertEquals(List.of("image"), fused.inputs().stream().map(p -> p.name()).toList());
      assertEquals(
          "[-1, 10]",
          java.util.Arrays.toString(fused.outputs().get(0).shape().dims()).replace("-1", "-1"));
    }
  }

  /**
   * Training never sees a fused graph: a fused oneDNN convolution folds its batch norm into its
   * weight once and keeps it, so a model whose executors were fused would go on computing with the
   * weights it had. After a predictor is made, the model trains on, its forward moves with its
   * weights, and a predictor made afterwards agrees with that forward, not with the first one.
   */
  @Test
  void trainingAfterAPredictorIsMadeMovesTheModelsForward() {
    Random rng = new Random(4);
    try (FashionLeNetModel m = trainedLeNet(rng);
        Predictor first = m.predictor()) {
      float[] x = pixels(rng, 8);
      float[] before = first.predict(8, x)[0];
      assertClose(forward(m, x, 8, 1, 28, 28), before, 1e-5, "before training on");
      try (Sgd sgd = new Sgd(0.2f)) {
        for (int s = 0; s < 5; s++) {
          int[] y = new int[16];
          java.util.Arrays.fill(y, 3);
          m.classifier().trainBatch(pixels(rng, y.length), y, sgd);
        }
      }
      float[] after = forward(m, x, 8, 1, 28, 28);
      double moved = 0;
      for (int i = 0; i < after.length; i++) {
        moved = Math.max(moved, Math.abs(after[i] - before[i]));
      }
      assertTrue(moved > 1e-3, "the model's forward did not move with training: " + moved);
      assertClose(before, first.predict(8, x)[0], 0, "the first predictor, a snapshot");
      try (Predictor second = m.predictor()) {
        assertTrue(second.isFused());
        assertClose(after, second.predict(8, x)[0], 1e-5, "a predictor made after training");
      }
    }
  }

  @Test
  void aPredictorIsASnapshotAndSurvivesASaveAndLoad(@TempDir Path dir) {
    Random rng = new Random(2);
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 3);
        Predictor p = m.predictor()) {
      float[] x = pixels(rng, 4);
      float[] before = p.predict(4, x)[0];
      p.save(dir.resolve("mlp"));
      m.params().logitsBias().set(new float[] {5, 0, 0, 0, 0, 0, 0, 0, 0, 0});
      assertClose(before, p.predict(4, x)[0], 0, "after the model changed");
      try (Predictor loaded = Predictor.load(dir.resolve("mlp"), InferenceOptions.DEFAULT)) {
        assertEquals(p.inputs(), loaded.inputs());
        assertEquals(p.outputs().get(0).shape(), loaded.outputs().get(0).shape());
        assertClose(before, loaded.predict(4, x)[0], 1e-6, "loaded");
      }
      IllegalArgumentException bad =
          assertThrows(IllegalArgumentException.class, () -> p.predict(2, new float[784]));
      assertTrue(bad.getMessage().contains("takes 1568 values, got 784"), bad.getMessage());
      float[] nan = pixels(rng, 1);
      nan[3] = Float.NaN;
      bad = assertThrows(IllegalArgumentException.class, () -> p.predict(1, nan));
      assertTrue(bad.getMessage().contains("NaN at flat index 3"), bad.getMessage());
    }
  }

  /**
   * A model's own checkpoint records its input shapes: it loads as the model's predictor without
   * them; without them recorded (its symbol written over the checkpoint's, as MXNet's exports
   * record none) the shapes given make it one (and it saves with them recorded); a name that is no
   * input, or a parameter, is refused.
   */
  @Test
  void aModelsCheckpointLoadsAsAPredictorWithItsInputShapesGiven(@TempDir Path dir)
      throws Exception {
    Random rng = new Random(4);
    float[] x = pixels(rng, 3);
    try (FashionLeNetModel m = FashionLeNetModel.create(Init.xavier(), 8);
        Predictor p = m.predictor()) {
      m.save(dir.resolve("lenet"));
      float[] expected = p.predict(3, x)[0];
      try (Predictor recorded = Predictor.load(dir.resolve("lenet"), InferenceOptions.DEFAULT)) {
        assertEquals(p.inputs(), recorded.inputs());
        assertClose(expected, recorded.predict(3, x)[0], 1e-5, "its recorded input shape");
      }
      java.nio.file.Files.writeString(dir.resolve("lenet-symbol.json"), m.symbolJson());
      IllegalArgumentException unknown =
          assertThrows(
              IllegalArgumentException.class,
              () -> Predictor.load(dir.resolve("lenet"), InferenceOptions.DEFAULT));
      assertTrue(
          unknown.getMessage().contains("argument 'image' has no array"), unknown.getMessage());
      Port image =
          new Port(
              "image",
              dev.kiln.runtime.graph.Shape.of(dev.kiln.runtime.graph.Shape.BATCH, 1, 28, 28));
      try (Predictor loaded =
          Predictor.load(dir.resolve("lenet"), InferenceOptions.DEFAULT, List.of(image))) {
        assertEquals(p.inputs(), loaded.inputs());
        assertClose(expected, loaded.predict(3, x)[0], 1e-5, "loaded with its input's shape");
        loaded.save(dir.resolve("lenet-predictor"));
      }
      try (Predictor again =
          Predictor.load(dir.resolve("lenet-predictor"), InferenceOptions.DEFAULT)) {
        assertClose(expected, again.predict(3, x)[0], 1e-5, "saved with its shape recorded");
      }
      IllegalArgumentException wrong =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  Predictor.load(
                      dir.resolve("lenet"),
                      InferenceOptions.DEFAULT,
                      List.of(new Port("pixels", image.shape()))));
      assertTrue(wrong.getMessage().contains("has no input 'pixels'"), wrong.getMessage());
      IllegalArgumentException param =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  Predictor.load(
                      dir.resolve("lenet"),
                      InferenceOptions.DEFAULT,
                      List.of(image, new Port("conv1_weight", image.shape()))));
      assertTrue(wrong.getMessage().contains("checkpoint "), wrong.getMessage());
      assertTrue(param.getMessage().contains("'conv1_weight' is a parameter"), param.getMessage());
    }
  }

  /**
   * A sum of a value with itself crashes MXNet's fused bind (SIGSEGV): such a predictor runs
   * unfused, says why, computes what the model does, and cannot be quantised.
   */
  @Test
  void aSumOfAValueWithItselfRunsUnfusedInsteadOfCrashing() {
    try (dev.kiln.e2e.models.SelfSumModel m =
            dev.kiln.e2e.models.SelfSumModel.create(Init.xavier(), 1);
        Predictor p = m.predictor()) {
      assertTrue(!p.isFused(), "fused");
      assertTrue(p.fusionRefusal().contains("'sum'"), p.fusionRefusal());
      float[] x = {1, 2, 3, 4, -1, -2, -3, -4};
      float[] expected;
      try (NDManager nd = NDManager.newBaseManager()) {
        expected = m.forward(new NDList(nd.create(x, new Shape(2, 4)))).get(0).toFloatArray();
      }
      assertClose(expected, p.predict(2, x)[0], 1e-6, "unfused self sum");
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  m.quantized(
                      new dev.kiln.runtime.data.Dataset(x, new int[2], 4, 3),
                      dev.kiln.runtime.infer.QuantizeOptions.defaults()));
      assertTrue(e.getMessage().contains("sum of a value with itself"), e.getMessage());
    }
  }
}
