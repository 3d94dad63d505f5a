package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.AffineOnlyModel;
import dev.kiln.e2e.models.BackwardsNetModel;
import dev.kiln.e2e.models.BrokenNetModel;
import dev.kiln.e2e.models.CustomNetGraph;
import dev.kiln.e2e.models.CustomNetModel;
import dev.kiln.e2e.models.GatedSaveModel;
import dev.kiln.e2e.models.VectorWeightNetModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.io.NamedArray;
import dev.kiln.runtime.io.ParamsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Custom {@code @Layer}s: shapes, parameters, gradients and errors. */
class CustomLayerTest {
  @Test
  void contractShapesAreInferredAtCompileTime() {
    assertEquals(dev.kiln.runtime.graph.Shape.of(5, 4), CustomNetGraph.HIDDEN_WEIGHT_SHAPE);
    assertEquals(dev.kiln.runtime.graph.Shape.of(4), CustomNetGraph.HIDDEN_BIAS_SHAPE);
    assertEquals(dev.kiln.runtime.graph.Shape.of(-1, 3), CustomNetGraph.GATED_SHAPE);
  }

  @Test
  void affineComputesXTimesWPlusBWithWLaidOutInByOut() {
    try (AffineOnlyModel m = AffineOnlyModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] w = new float[20];
      for (int i = 0; i < 20; i++) {
        w[i] = i * 0.1f; // W[in][out] = (in * 4 + out) / 10
      }
      float[] b = {1, 0, -1, 0.5f};
      m.params().yWeight().set(w);
      m.params().yBias().set(b);
      float[] x = {1, 2, 0, 0, -1};
      float[] expected = b.clone();
      for (int o = 0; o < 4; o++) {
        for (int i = 0; i < 5; i++) {
          expected[o] += x[i] * w[i * 4 + o];
        }
      }
      assertArrayEquals(expected, m.forward(nd.create(x, new Shape(1, 5))).toFloatArray(), 1e-5f);
      assertArrayEquals(new float[4], new AffineZeroBias(m).bias(), 0f);
    }
  }

  /** A fresh model's bias starts at zero ({@code @Param(zeros = true)}). */
  private record AffineZeroBias(AffineOnlyModel used) {
    float[] bias() {
      try (AffineOnlyModel fresh = AffineOnlyModel.create(Init.xavier(), 9)) {
        return fresh.params().yBias().get();
      }
    }
  }

  @Test
  void gradientsOfCustomLayersMatchFiniteDifferences() {
    try (CustomNetModel m = CustomNetModel.create(Init.xavier(), 5);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{3, 5}}, 21).run();
      assertEquals((5 * 4 + 4) + (4 * 3 + 3) + 15, n);
    }
  }

  @Test
  void aShapeErrorInsideTheBodyNamesLayerNodeOperationAndShapes() {
    ModelException e = assertThrows(ModelException.class, BrokenNetModel::create);
    assertEquals(
        "BrokenNet.y() @BrokenLayer(out = 2): in layer BrokenLayer, mul of [BATCH, 6] "
            + "and [6, 2] does not fit: each pair of trailing dimensions must be equal or 1\n"
            + "  shapes through the body of BrokenLayer, from input x [BATCH, 6] and parameter "
            + "y_weight [6, 2] (its @Param shape):\n"
            + "    mul(x [BATCH, 6], y_weight [6, 2]) does not fit",
        e.getMessage());
    assertEquals("y", e.source().node());
  }

  @Test
  void aBodyErrorShowsTheShapesThroughEveryOperationBeforeIt() {
    // The weight is declared {"in"} where {"in", "out"} was meant: the dot fits, and the add of
    // the bias is where the shapes part; the trace shows where [BATCH] came from.
    ModelException e = assertThrows(ModelException.class, VectorWeightNetModel::create);
    assertEquals(
        "VectorWeightNet.scores() @VectorWeight(out = 10): in layer VectorWeight, add "
            + "of [BATCH] and [10] does not fit: each pair of trailing dimensions must be equal or 1\n"
            + "  shapes through the body of VectorWeight, from input hidden [BATCH, 32] and "
            + "parameters scores_weight [32], scores_bias [10] (their @Param shapes):\n"
            + "    scores_dot0 = dot(hidden [BATCH, 32], scores_weight [32]) -> [BATCH]\n"
            + "    add(scores_dot0 [BATCH], scores_bias [10]) does not fit",
        e.getMessage());
    assertEquals("scores", e.source().node());
  }

  @Test
  void aBodyThatBreaksItsOutputContractIsCaughtBeforeBinding() {
    ModelException e = assertThrows(ModelException.class, BackwardsNetModel::create);
    assertEquals(
        "BackwardsNet.y() @BackwardsLayer(out = 2): layer BackwardsLayer declares output "
            + "shape [BATCH, 2] but its forward pass returned [2, BATCH]\n"
            + "  shapes through the body of BackwardsLayer, from input x [BATCH, 6] and parameter "
            + "y_weight [6, 2] (its @Param shape):\n"
            + "    y_transpose0 = transpose(y_weight [6, 2]) -> [2, 6]\n"
            + "    y_transpose1 = transpose(x [BATCH, 6]) -> [6, BATCH]\n"
            + "    y_dot2 = dot(y_transpose0 [2, 6], y_transpose1 [6, BATCH]) -> [2, BATCH]",
        e.getMessage());
  }

  @Test
  void mixedCaseParametersAreSnakeCaseInMxnetAndSurviveACheckpoint(@TempDir Path dir)
      throws IOException {
    try (GatedSaveModel m = GatedSaveModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      m.params().gatedGateWeight().set(new float[] {0.5f, -1f, 2f});
      m.save(dir.resolve("gated"));
      assertEquals(
          List.of("arg:gated_input_weight", "arg:gated_gate_weight"),
          ParamsFile.read(dir.resolve("gated-0000.params")).stream().map(NamedArray::key).toList());
      assertTrue(
          Files.readString(dir.resolve("gated-symbol.json")).contains("\"gated_gate_weight\""));
      float[] x = {1, -2, 0.5f, 3, 0, -1, 1, 1, 2, -0.5f};
      try (GatedSaveModel loaded = GatedSaveModel.load(dir.resolve("gated"))) {
        assertArrayEquals(
            m.params().gatedInputWeight().get(), loaded.params().gatedInputWeight().get(), 0f);
        assertArrayEquals(new float[] {0.5f, -1f, 2f}, loaded.params().gatedGateWeight().get(), 0f);
        assertArrayEquals(
            m.forward(nd.create(x, new Shape(2, 5))).toFloatArray(),
            loaded.forward(nd.create(x, new Shape(2, 5))).toFloatArray(),
            0f);
      }
    }
  }
}
