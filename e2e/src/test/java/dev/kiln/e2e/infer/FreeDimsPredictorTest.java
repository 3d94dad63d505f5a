package dev.kiln.e2e.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.e2e.models.PnetModel;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Prediction;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.infer.QuantizeOptions;
import dev.kiln.runtime.mxnet.HandleCounter;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Predictors of a model with free dimensions (MTCNN's PNet, free H and W of at least 12): ports
 * with free sizes, an executor per input shape over one copy of the weights, the model's
 * requirements checked before binding, and checkpoints (the predictor's and the model's own) that
 * keep the free dimensions; each size against the model's own forward at that size.
 */
class FreeDimsPredictorTest {
  @TempDir Path dir;

  /** Two sizes, odd and even, square and not. */
  private static final int[][] SIZES = {{24, 31}, {37, 18}};

  private static float[] image(Random rng, int n, int h, int w) {
    float[] x = new float[n * 3 * h * w];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat() * 2 - 1;
    }
    return x;
  }

  /** The model's own (unfused, training path) forward: its score and box outputs. */
  private static float[][] forward(PnetModel pnet, float[] x, int n, int h, int w) {
    try (NDManager nd = NDManager.newBaseManager()) {
      NDArray in = nd.create(x, new ai.djl.ndarray.types.Shape(n, 3, h, w));
      PnetModel.Outputs out = pnet.forward(in);
      return new float[][] {out.score().toFloatArray(), out.box().toFloatArray()};
    }
  }

  private static Prediction predict(Predictor p, float[] x, int n, int h, int w) {
    return p.predict(List.of(Shape.of(n, 3, h, w)), x);
  }

  @Test
  void fusedAndUnfusedPredictorsComputeTheModelsForwardAtEachSize() {
    Random rng = new Random(1);
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 7);
        Predictor fused = pnet.predictor();
        Predictor unfused = pnet.predictor(InferenceOptions.unfused())) {
      assertTrue(fused.isFused(), String.valueOf(fused.fusionRefusal()));
      assertEquals("[BATCH, 3, H, W]", fused.inputs().get(0).shape().toString());
      assertArrayEquals(new int[] {-1, 3, -1, -1}, fused.inputs().get(0).openDims());
      assertEquals(List.of("score", "box"), fused.outputs().stream().map(o -> o.name()).toList());
      assertArrayEquals(new int[] {-1, 2, -1, -1}, fused.outputs().get(0).openDims());
      assertArrayEquals(new int[] {-1, 4, -1, -1}, fused.outputs().get(1).openDims());
      assertTrue(fused.hasFreeDimensions());
      int before = fused.executorCount();
      for (int[] hw : SIZES) {
        int n = 2;
        float[] x = image(rng, n, hw[0], hw[1]);
        float[][] own = forward(pnet, x, n, hw[0], hw[1]);
        // The compiler's shape of score: [BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5].
        int oh = (hw[0] + 1) / 2 - 5;
        int ow = (hw[1] + 1) / 2 - 5;
        for (Predictor p : List.of(fused, unfused)) {
          Prediction out = predict(p, x, n, hw[0], hw[1]);
          assertEquals(List.of(Shape.of(n, 2, oh, ow), Shape.of(n, 4, oh, ow)), out.shapes());
          PredictorTest.assertClose(own[0], out.values()[0], 1e-4, p + " score " + hw[0]);
          PredictorTest.assertClose(own[1], out.values()[1], 1e-4, p + " box " + hw[0]);
        }
      }
      assertEquals(before + SIZES.length, fused.executorCount());
      // The same shape again binds nothing.
      predict(fused, image(rng, 2, SIZES[0][0], SIZES[0][1]), 2, SIZES[0][0], SIZES[0][1]);
      assertEquals(before + SIZES.length, fused.executorCount());
    }
  }

  @Test
  void aSizeTheModelCannotTakeIsRefusedByRuleBeforeBinding() {
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 7);
        Predictor p = pnet.predictor()) {
      int before = p.executorCount();
      IllegalArgumentException small =
          assertThrows(
              IllegalArgumentException.class, () -> predict(p, new float[3 * 10 * 10], 1, 10, 10));
      assertEquals(
          "PnetModel: H = 10, W = 10 breaks H >= 12, declared by @FreeDim(min = 12) int H (at H"
              + " = 10)",
          small.getMessage());
      IllegalArgumentException wide =
          assertThrows(
              IllegalArgumentException.class, () -> predict(p, new float[3 * 12 * 11], 1, 12, 11));
      assertTrue(wide.getMessage().contains("breaks W >= 12"), wide.getMessage());
      IllegalArgumentException channels =
          assertThrows(
              IllegalArgumentException.class,
              () -> p.predict(List.of(Shape.of(1, 4, 12, 12)), new float[4 * 144]));
      assertEquals(
          "PnetModel: input 'image' has shape [BATCH, 3, H, W] (BATCH and free sizes from 1), got"
              + " [1, 4, 12, 12]",
          channels.getMessage());
      IllegalArgumentException count =
          assertThrows(
              IllegalArgumentException.class,
              () -> p.predict(List.of(Shape.of(1, 3, 12, 13)), new float[3 * 144]));
      assertTrue(count.getMessage().contains("takes 468 values, got 432"), count.getMessage());
      IllegalArgumentException batchOnly =
          assertThrows(IllegalArgumentException.class, () -> p.predict(1, new float[3 * 144]));
      assertTrue(
          batchOnly.getMessage().contains("has free dimensions [H, W]"), batchOnly.getMessage());
      assertEquals(before, p.executorCount());
    }
  }

  @Test
  void aSavedPredictorLoadsWithItsFreeDimensionsAndComputesTheSameAtTwoSizes() {
    Random rng = new Random(2);
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 11);
        Predictor original = pnet.predictor()) {
      original.save(dir.resolve("pnet"));
      try (Predictor loaded = Predictor.load(dir.resolve("pnet"), InferenceOptions.DEFAULT)) {
        assertEquals(original.dimensions(), loaded.dimensions());
        assertEquals("[BATCH, 3, H, W]", loaded.inputs().get(0).shape().toString());
        assertEquals(original.inputs(), loaded.inputs());
        assertEquals(original.outputs(), loaded.outputs());
        for (int[] hw : SIZES) {
          float[] x = image(rng, 3, hw[0], hw[1]);
          Prediction want = predict(original, x, 3, hw[0], hw[1]);
          Prediction got = predict(loaded, x, 3, hw[0], hw[1]);
          assertEquals(want.shapes(), got.shapes());
          assertArrayEquals(want.values()[0], got.values()[0], 1e-6f, "score " + hw[0]);
          assertArrayEquals(want.values()[1], got.values()[1], 1e-6f, "box " + hw[0]);
        }
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () -> predict(loaded, new float[3 * 12 * 10], 1, 12, 10));
        assertEquals(
            "pnet: H = 12, W = 10 breaks W >= 12, declared by @FreeDim(min = 12) int W (at W = 10)",
            e.getMessage());
      }
    }
  }

  /**
   * A model's own checkpoint records its free dimensions and their requirements as a predictor's
   * does: the model loads it, and so does {@code Predictor.load} (what {@code kiln serve
   * --checkpoint} runs) without being told the inputs, computing what the model computes at every
   * size and refusing by rule a size it cannot take.
   */
  @Test
  void aSavedModelLoadsAndComputesTheSameAtTwoSizes() {
    Random rng = new Random(3);
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 5)) {
      pnet.save(dir.resolve("model"));
      try (PnetModel loaded = PnetModel.load(dir.resolve("model"));
          Predictor served = Predictor.load(dir.resolve("model"), InferenceOptions.DEFAULT)) {
        assertEquals("[BATCH, 3, H, W]", served.inputs().get(0).shape().toString());
        for (int[] hw : SIZES) {
          float[] x = image(rng, 2, hw[0], hw[1]);
          float[][] want = forward(pnet, x, 2, hw[0], hw[1]);
          float[][] got = forward(loaded, x, 2, hw[0], hw[1]);
          assertArrayEquals(want[0], got[0], 0f, "score " + hw[0]);
          assertArrayEquals(want[1], got[1], 0f, "box " + hw[0]);
          Prediction p = predict(served, x, 2, hw[0], hw[1]);
          assertArrayEquals(want[0], p.values()[0], 1e-5f, "served score " + hw[0]);
          assertArrayEquals(want[1], p.values()[1], 1e-5f, "served box " + hw[0]);
        }
        assertEquals(SIZES.length, loaded.runtime().executorCount());
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () -> predict(served, new float[3 * 12 * 10], 1, 12, 10));
        assertTrue(e.getMessage().contains("breaks W >= 12"), e.getMessage());
      }
    }
  }

  /**
   * Each size binds its own executor once (a size seen before makes no handle), and closing the
   * predictor frees every one of them with its weights and symbol.
   */
  @Test
  void closeFreesTheExecutorsOfEverySize() {
    assertTrue(HandleCounter.enabled(), "tests run with -Dkiln.mx.countHandles=true");
    Random rng = new Random(4);
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 9)) {
      long before = HandleCounter.live();
      Predictor p = pnet.predictor();
      for (int[] hw : new int[][] {{12, 12}, {20, 13}, {33, 40}}) {
        predict(p, image(rng, 1, hw[0], hw[1]), 1, hw[0], hw[1]);
      }
      long created = HandleCounter.created();
      predict(p, image(rng, 1, 20, 13), 1, 20, 13);
      assertEquals(created, HandleCounter.created(), "a size seen before binds nothing");
      assertTrue(HandleCounter.live() > before, "the predictor holds handles while open");
      p.close();
      assertEquals(before, HandleCounter.live(), "live MXNet handles after close");
    }
  }

  @Test
  void int8IsRefusedForFreeDimensions() {
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 7)) {
      Dataset data = new Dataset(new float[2 * 3 * 144], new int[2], 3 * 144, 2);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> pnet.quantized(data, QuantizeOptions.defaults()).close());
      assertEquals(
          "PnetModel: cannot quantise a model with free dimensions (input 'image' [BATCH, 3, H,"
              + " W]): int8 calibration measures ranges at one example shape; predict in float32",
          e.getMessage());
    }
  }
}
