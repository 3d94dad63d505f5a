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
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoopTranslator;
import dev.kiln.e2e.models.TwoLengthsModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import dev.kiln.sample.models.CrossAttentionModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample decoder layer over two free lengths ({@code T} target steps attending over {@code S}
 * source steps): one set of weights at several pairs of lengths, against DJL's MXNet engine reading
 * the same checkpoint, with gradients against finite differences at two pairs, and a batch whose
 * inputs disagree refused.
 */
class CrossAttentionTest {
  @TempDir Path dir;

  private static final int[][] LENGTHS = {{3, 5}, {7, 2}, {1, 9}, {4, 4}};

  @Test
  void everyPairOfLengthsComputesWhatDjlComputesFromTheSameCheckpoint() throws Exception {
    try (CrossAttentionModel m = CrossAttentionModel.create(Init.xavier(), 5);
        NDManager nd = NDManager.newBaseManager();
        Model djl = Model.newInstance("cross", "MXNet")) {
      m.save(dir.resolve("cross"));
      djl.load(dir, "cross");
      try (Predictor<NDList, NDList> reference = djl.newPredictor(new NoopTranslator())) {
        for (int[] ts : LENGTHS) {
          NDArray target = nd.randomNormal(new Shape(2, ts[0], 12));
          NDArray source = nd.randomNormal(new Shape(2, ts[1], 20));
          NDArray out = m.forward(target, source);
          assertArrayEquals(new long[] {2, ts[0], 8}, out.getShape().getShape());
          NDArray theirs = reference.predict(new NDList(target, source)).singletonOrThrow();
          assertArrayEquals(theirs.toFloatArray(), out.toFloatArray(), 1e-5f);
        }
      }
      assertEquals(LENGTHS.length, m.runtime().executorCount());
    }
  }

  @Test
  void gradientsMatchFiniteDifferencesAtTwoPairsOfLengths() {
    // A narrow copy of the layer (widths 4), where float32 finite differences are exact enough.
    try (TwoLengthsModel m = TwoLengthsModel.create(Init.xavier(), 6);
        NDManager nd = NDManager.newBaseManager()) {
      int a = new GradientCheck(m.runtime(), nd, new long[][] {{2, 3, 4}, {2, 5, 4}}, 21).run();
      m.runtime().zeroGradients(); // gradients add up over backward calls until an update
      int b = new GradientCheck(m.runtime(), nd, new long[][] {{1, 6, 4}, {1, 2, 4}}, 22).run();
      assertEquals(a - 2 * 3 * 4 - 2 * 5 * 4, b - 6 * 4 - 2 * 4, "the same parameters at both");
      assertTrue(a > 0);
    }
  }

  @Test
  void inputsDisagreeingOnTheBatchAreRefused() {
    try (CrossAttentionModel m = CrossAttentionModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.forward(nd.zeros(new Shape(2, 3, 12)), nd.zeros(new Shape(3, 4, 20))));
      assertTrue(e.getMessage().contains("disagree on BATCH"), e.getMessage());
    }
  }
}
