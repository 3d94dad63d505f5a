package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.InstanceNormedModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code @InstanceNorm} compiled by the processor and run on MXNet: each channel of each example
 * normalised over its own values (gamma 1, beta 0 as they start), against plain Java written from
 * the definition, and its gradients against finite differences.
 */
class InstanceNormTest {
  /** {@code [n, c, size]} normalised per (example, channel): (x - mean) / sqrt(var + eps). */
  static float[] instanceNorm(float[] x, int n, int c, int size, double eps) {
    float[] out = new float[x.length];
    for (int p = 0; p < n * c; p++) {
      double mean = 0;
      for (int k = 0; k < size; k++) {
        mean += x[p * size + k];
      }
      mean /= size;
      double var = 0;
      for (int k = 0; k < size; k++) {
        double d = x[p * size + k] - mean;
        var += d * d;
      }
      var /= size;
      for (int k = 0; k < size; k++) {
        out[p * size + k] = (float) ((x[p * size + k] - mean) / Math.sqrt(var + eps));
      }
    }
    return out;
  }

  @Test
  void eachChannelOfEachExampleIsNormalisedOverItsOwnValues() {
    Random rng = new Random(9);
    float[] x = new float[3 * 2 * 3 * 4];
    for (int k = 0; k < x.length; k++) {
      x[k] = (float) (2 * rng.nextGaussian() + 1);
    }
    try (InstanceNormedModel m = InstanceNormedModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      float[] actual = m.forward(nd.create(x, new Shape(3, 2, 3, 4))).toFloatArray();
      assertArrayEquals(instanceNorm(x, 3, 2, 12, 1e-3), actual, 1e-5f);
    }
  }

  @Test
  void itsGradientsAreFiniteDifferences() {
    try (InstanceNormedModel m = InstanceNormedModel.create(Init.xavier(), 4);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 2, 3, 4}}, 19).run();
      assertEquals((2 + 2) + 2 * 2 * 3 * 4, n);
    }
  }
}
