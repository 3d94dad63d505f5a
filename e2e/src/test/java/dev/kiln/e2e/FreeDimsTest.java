package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import dev.kiln.e2e.models.Pnet;
import dev.kiln.e2e.models.PnetGraph;
import dev.kiln.e2e.models.PnetModel;
import dev.kiln.e2e.models.SkipNetGraph;
import dev.kiln.e2e.models.SkipNetModel;
import dev.kiln.runtime.Init;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model with free dimensions ({@code @FreeDim}) at run time: MTCNN's PNet, fully convolutional,
 * bound at several image sizes over one set of parameters, against DJL's MXNet engine reading the
 * same checkpoint (an independent executor of the same graph at each size), and refusing a size its
 * layers cannot take before MXNet sees it.
 */
class FreeDimsTest {
  @TempDir Path dir;

  /** The sizes tried: the least PNet takes, odd and even, square and not. */
  private static final int[][] SIZES = {{12, 12}, {24, 31}, {37, 41}, {64, 48}};

  @Test
  void pnetAtFourSizesComputesWhatDjlComputesFromTheSameCheckpoint() throws Exception {
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 7);
        NDManager nd = NDManager.newBaseManager();
        Model djl = Model.newInstance("pnet", "MXNet")) {
      pnet.save(dir.resolve("pnet"));
      djl.load(dir, "pnet");
      try (Predictor<NDList, NDList> reference = djl.newPredictor(new NoopTranslator())) {
        for (int[] hw : SIZES) {
          NDArray image =
              nd.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(2, 3, hw[0], hw[1]));
          PnetModel.Outputs out = pnet.forward(image);
          // The compiler's shape of score: [BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5].
          long[] expected = {2, 2, (hw[0] + 1) / 2 - 5, (hw[1] + 1) / 2 - 5};
          assertArrayEquals(expected, out.score().getShape().getShape());
          NDList theirs = reference.predict(new NDList(image));
          assertArrayEquals(
              theirs.get(0).toFloatArray(), out.score().toFloatArray(), 1e-5f, "score");
          assertArrayEquals(theirs.get(1).toFloatArray(), out.box().toFloatArray(), 1e-5f, "box");
        }
      }
      assertEquals(SIZES.length, pnet.runtime().executorCount());
    }
  }

  @Test
  void trainingAtOneSizeChangesWhatEverySizeComputes() {
    try (PnetModel pnet = PnetModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray big = nd.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(1, 3, 30, 30));
      NDArray small = nd.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(1, 3, 12, 12));
      float[] before = pnet.forward(small).box().toFloatArray();
      pnet.setTraining(true);
      PnetModel.Outputs out = pnet.forward(big);
      pnet.backward(out.score().onesLike(), out.box().onesLike());
      pnet.update(0.1f);
      pnet.setTraining(false);
      float[] after = pnet.forward(small).box().toFloatArray();
      assertTrue(Math.abs(after[0] - before[0]) > 1e-4, "the 12x12 executor saw the update");
    }
  }

  @Test
  void anImageSmallerThanTheLayersNeedIsRefusedNamingTheDimensionAndTheRule() {
    try (PnetModel pnet = PnetModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      NDArray tiny = nd.zeros(new ai.djl.ndarray.types.Shape(1, 3, 10, 10));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> pnet.forward(tiny));
      assertEquals(
          "PnetModel: H = 10, W = 10 breaks H >= 12, declared by @FreeDim(min = 12) int H (at H"
              + " = 10)",
          e.getMessage());
      assertEquals(0, pnet.runtime().executorCount());
    }
  }

  /**
   * A skip connection over sizes declared even (compiled because {@code multipleOf = 2} makes
   * pooled-then-upsampled equal to the input's size): DJL reading the same checkpoint computes the
   * same at three even sizes, and an odd height is refused by the declaration before MXNet, whose
   * {@code elemwise_add} would fail on the off-by-one shapes.
   */
  @Test
  void aSkipConnectionOverEvenSizesRunsAndRefusesAnOddOne() throws Exception {
    try (SkipNetModel net = SkipNetModel.create(Init.xavier(), 5);
        NDManager nd = NDManager.newBaseManager();
        Model djl = Model.newInstance("skip", "MXNet")) {
      net.save(dir.resolve("skip"));
      djl.load(dir, "skip");
      try (Predictor<NDList, NDList> reference = djl.newPredictor(new NoopTranslator())) {
        for (int[] hw : new int[][] {{4, 4}, {8, 14}, {22, 6}}) {
          NDArray image =
              nd.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(2, 3, hw[0], hw[1]));
          NDArray out = net.forward(image);
          assertArrayEquals(new long[] {2, 4, hw[0], hw[1]}, out.getShape().getShape());
          NDArray theirs = reference.predict(new NDList(image)).get(0);
          assertArrayEquals(theirs.toFloatArray(), out.toFloatArray(), 1e-5f);
        }
      }
      NDArray odd = nd.zeros(new ai.djl.ndarray.types.Shape(1, 3, 9, 8));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> net.forward(odd));
      assertEquals(
          "SkipNetModel: H = 9, W = 8 breaks H % 2 == 0, declared by @FreeDim(min = 4, multipleOf"
              + " = 2) int H (at H % 2 = 1)",
          e.getMessage());
      assertEquals("[BATCH, 4, H / 2, W / 2]", SkipNetGraph.POOLED_SHAPE.toString());
      assertEquals("[BATCH, 4, H, W]", SkipNetGraph.SUM_SHAPE.toString());
    }
  }

  @Test
  void theGeneratedCodeNamesTheDimensions() {
    assertEquals("[BATCH, 3, H, W]", PnetGraph.IMAGE_SHAPE.toString());
    assertEquals("[BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5]", PnetGraph.SCORE_SHAPE.toString());
    assertEquals(-10, Pnet.H);
    assertEquals(2, PnetGraph.DIMENSIONS.requirements().size());
  }
}
