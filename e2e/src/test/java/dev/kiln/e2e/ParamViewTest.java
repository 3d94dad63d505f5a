package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.DenseTanhModel;
import dev.kiln.runtime.exec.ParamView;
import dev.kiln.runtime.exec.Parameter;
import org.junit.jupiter.api.Test;

/** Parameters read and written in another layout. */
class ParamViewTest {
  @Test
  void aDenseWeightWrittenAsInByOutIsUsedByEveryExecutor() {
    try (DenseTanhModel m = DenseTanhModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      Parameter w = m.params().yWeight();
      assertEquals(dev.kiln.runtime.graph.Shape.of(4, 6), w.shape());
      Parameter.View wIn = w.transposed();
      assertEquals(dev.kiln.runtime.graph.Shape.of(6, 4), wIn.shape());
      float[] inOut = new float[24];
      for (int i = 0; i < 24; i++) {
        inOut[i] = (i % 5 - 2) * 0.1f; // W[in][out]
      }
      m.forward(nd.zeros(new Shape(3, 2, 3))); // an executor for batch 3 exists before the write
      wIn.set(inOut);
      assertArrayEquals(inOut, wIn.get(), 0f);
      assertEquals(inOut[1 * 4 + 2], w.get()[2 * 6 + 1], 0f, "stored [out, in]");

      float[] x = {1, -1, 0.5f, 2, 0, -0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      float[] y = m.forward(nd.create(x, new Shape(3, 2, 3))).toFloatArray();
      for (int o = 0; o < 4; o++) {
        double acc = 0;
        for (int i = 0; i < 6; i++) {
          acc += x[i] * inOut[i * 4 + o];
        }
        assertEquals(Math.tanh(acc), y[o], 1e-5);
      }
    }
  }

  @Test
  void anElementwiseViewRoundTripsAndChecksLength() {
    try (DenseTanhModel m = DenseTanhModel.create()) {
      Parameter.View doubled =
          m.params().yBias().view(ParamView.elementwise(v -> 2 * v, v -> v / 2));
      doubled.set(new float[] {2, 4, 6, 8});
      assertArrayEquals(new float[] {1, 2, 3, 4}, m.params().yBias().get(), 0f);
      assertArrayEquals(new float[] {2, 4, 6, 8}, doubled.get(), 0f);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> doubled.set(new float[3]));
      assertEquals(
          "DenseTanhModel parameter y_bias viewed as [4] takes 4 values, got 3", e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> m.params().yBias().transposed().get());
    }
  }
}
