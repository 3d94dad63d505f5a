package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.ScaleShiftNetModel;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.graph.ParamSpec;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @Param(init = ...)}: what a custom layer's parameters hold in MXNet's arrays right after
 * {@code create()}, what the forward pass computes with them, and that a checkpoint keeps their
 * values, not their starting ones.
 */
class ParamInitTest {
  private static final float[] ONES = {1, 1, 1};
  private static final float[] QUARTERS = {0.25f, 0.25f, 0.25f};
  private static final float[] ZEROS = {0, 0, 0};

  @Test
  void eachParameterStartsAsItsParamSays() {
    try (ScaleShiftNetModel m = ScaleShiftNetModel.create()) {
      float[] w = m.params().yWeight().get();
      // Xavier uniform over [4, 3]: U(-s, s), s = sqrt(3 / 3.5); not a constant.
      assertEquals(12, w.length);
      assertTrue(Arrays.stream(toDoubles(w)).distinct().count() > 6, Arrays.toString(w));
      assertTrue(Arrays.stream(toDoubles(w)).allMatch(v -> Math.abs(v) <= Math.sqrt(3 / 3.5)));
      assertArrayEquals(ONES, m.params().yScale().get(), 0f);
      assertArrayEquals(QUARTERS, m.params().yShift().get(), 0f);
      assertArrayEquals(ZEROS, m.params().yBias().get(), 0f);
    }
  }

  @Test
  void theModelsInitialiserFillsOnlyTheParametersLeftToIt() {
    try (ScaleShiftNetModel m = ScaleShiftNetModel.create(Init.constant(0.5f), 1)) {
      float[] half = new float[12];
      Arrays.fill(half, 0.5f);
      assertArrayEquals(half, m.params().yWeight().get(), 0f);
      assertArrayEquals(ONES, m.params().yScale().get(), 0f);
      assertArrayEquals(QUARTERS, m.params().yShift().get(), 0f);
      assertArrayEquals(ZEROS, m.params().yBias().get(), 0f);
      ParamSpec shift = m.runtime().graph().param("y_shift");
      assertEquals(ParamSpec.Kind.CONSTANT, shift.kind());
      assertEquals(0.25f, shift.constant());
      assertEquals(ParamSpec.Kind.GAMMA, m.runtime().graph().param("y_scale").kind());
      assertEquals(ParamSpec.Kind.BIAS, m.runtime().graph().param("y_bias").kind());
      assertEquals(ParamSpec.Kind.WEIGHT, m.runtime().graph().param("y_weight").kind());
    }
  }

  @Test
  void theForwardPassComputesWithTheStartingValues() {
    try (ScaleShiftNetModel m = ScaleShiftNetModel.create(Init.xavier(), 4);
        NDManager nd = NDManager.newBaseManager()) {
      float[] w = m.params().yWeight().get();
      float[] x = {1, -2, 0.5f, 3};
      float[] expected = new float[3];
      for (int o = 0; o < 3; o++) {
        for (int i = 0; i < 4; i++) {
          expected[o] += x[i] * w[i * 3 + o];
        }
        expected[o] = expected[o] * 1 + 0.25f + 0;
      }
      assertArrayEquals(expected, m.forward(nd.create(x, new Shape(1, 4))).toFloatArray(), 1e-5f);
    }
  }

  @Test
  void aCheckpointKeepsTheValuesNotTheStart(@TempDir Path dir) {
    try (ScaleShiftNetModel m = ScaleShiftNetModel.create(Init.xavier(), 2);
        NDManager nd = NDManager.newBaseManager()) {
      m.params().yScale().set(new float[] {2, -1, 0.5f});
      m.params().yShift().set(new float[] {0, 1, 2});
      m.save(dir.resolve("trained"));
      try (ScaleShiftNetModel loaded = ScaleShiftNetModel.load(dir.resolve("trained"))) {
        assertArrayEquals(new float[] {2, -1, 0.5f}, loaded.params().yScale().get(), 0f);
        assertArrayEquals(new float[] {0, 1, 2}, loaded.params().yShift().get(), 0f);
        assertArrayEquals(m.params().yWeight().get(), loaded.params().yWeight().get(), 0f);
        float[] x = {1, 2, 3, 4};
        assertArrayEquals(
            m.forward(nd.create(x, new Shape(1, 4))).toFloatArray(),
            loaded.forward(nd.create(x, new Shape(1, 4))).toFloatArray(),
            0f);
        assertEquals(0.25f, loaded.runtime().graph().param("y_shift").constant());
      }
    }
    // A model saved untrained loads with its starting values.
    try (ScaleShiftNetModel fresh = ScaleShiftNetModel.create(Init.xavier(), 3)) {
      fresh.save(dir.resolve("fresh"));
    }
    try (ScaleShiftNetModel loaded = ScaleShiftNetModel.load(dir.resolve("fresh"))) {
      assertArrayEquals(ONES, loaded.params().yScale().get(), 0f);
      assertArrayEquals(QUARTERS, loaded.params().yShift().get(), 0f);
    }
  }

  private static double[] toDoubles(float[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }
}
