package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The initialisers' statistics against theory, and seeded reproducibility. */
class InitTest {
  /** A [256, 512] dense weight: fanOut 256, fanIn 512, 131,072 samples. */
  private static final ParamSpec DENSE =
      new ParamSpec("d_weight", Shape.of(256, 512), "d", ParamSpec.Kind.WEIGHT);

  /** A [128, 64, 3, 3] convolution kernel: fanIn 64·9 = 576, fanOut 128·9 = 1152. */
  private static final ParamSpec CONV =
      new ParamSpec("c_weight", Shape.of(128, 64, 3, 3), "c", ParamSpec.Kind.WEIGHT);

  private static float[] sample(Init init, ParamSpec spec, long seed) {
    float[] v = new float[(int) spec.shape().size()];
    init.fill(spec, v, new SplittableRandom(seed));
    return v;
  }

  /** Mean, variance, max |x| and excess kurtosis of the samples. */
  private record Stats(double mean, double variance, double maxAbs, double excessKurtosis) {
    static Stats of(float[] v) {
      double sum = 0;
      double max = 0;
      for (float x : v) {
        sum += x;
        max = Math.max(max, Math.abs(x));
      }
      double mean = sum / v.length;
      double m2 = 0;
      double m4 = 0;
      for (float x : v) {
        double d = x - mean;
        m2 += d * d;
        m4 += d * d * d * d;
      }
      m2 /= v.length;
      m4 /= v.length;
      return new Stats(mean, m2, max, m4 / (m2 * m2) - 3);
    }

    double std() {
      return Math.sqrt(variance);
    }
  }

  /** Uniform on [-b, b): all inside, the extremes reached, variance b²/3, flat (kurtosis -1.2). */
  private static void assertUniform(float[] v, double bound) {
    Stats s = Stats.of(v);
    assertTrue(s.maxAbs() <= bound, "max |w| " + s.maxAbs() + " exceeds bound " + bound);
    assertTrue(s.maxAbs() > 0.999 * bound, "max |w| " + s.maxAbs() + " far below " + bound);
    assertEquals(0, s.mean(), 5 * bound / Math.sqrt(3.0 * v.length), "mean (5 std errors)");
    assertEquals(bound * bound / 3, s.variance(), 0.03 * bound * bound / 3, "variance");
    assertEquals(-1.2, s.excessKurtosis(), 0.05, "excess kurtosis of a uniform");
  }

  /** Normal with standard deviation sigma: std within 2%, bell-shaped (kurtosis 0). */
  private static void assertNormal(float[] v, double sigma) {
    Stats s = Stats.of(v);
    assertEquals(0, s.mean(), 5 * sigma / Math.sqrt(v.length), "mean (5 std errors)");
    assertEquals(sigma, s.std(), 0.02 * sigma, "standard deviation");
    assertEquals(0, s.excessKurtosis(), 0.1, "excess kurtosis of a normal");
    assertTrue(s.maxAbs() > 3.5 * sigma, "a normal sample this large has tails past 3.5σ");
  }

  @Test
  void xavierUniformHasMxnetsBoundAndVariance() {
    // MXNet's default Xavier(): bound sqrt(3 / ((512 + 256) / 2)) = sqrt(3 / 384).
    assertUniform(sample(Init.xavier(), DENSE, 1), Math.sqrt(3.0 / 384));
  }

  @Test
  void xavierFactorTypesChooseTheFan() {
    assertUniform(
        sample(Init.xavier(Init.Distribution.UNIFORM, Init.Factor.IN, 3f), DENSE, 2),
        Math.sqrt(3.0 / 512));
    assertUniform(
        sample(Init.xavier(Init.Distribution.UNIFORM, Init.Factor.OUT, 6f), DENSE, 3),
        Math.sqrt(6.0 / 256));
    // Convolution kernels multiply both fans by the receptive field 3·3.
    assertUniform(
        sample(Init.xavier(Init.Distribution.UNIFORM, Init.Factor.AVG, 3f), CONV, 4),
        Math.sqrt(3.0 / ((576 + 1152) / 2.0)));
    assertNormal(
        sample(Init.xavier(Init.Distribution.NORMAL, Init.Factor.OUT, 2f), CONV, 5),
        Math.sqrt(2.0 / 1152));
  }

  @Test
  void xavierNormalUsesTheScaleAsStandardDeviation() {
    assertNormal(sample(Init.xavierNormal(), DENSE, 6), Math.sqrt(3.0 / 384));
    assertNormal(
        sample(Init.xavier(Init.Distribution.NORMAL, Init.Factor.AVG, 1f), DENSE, 7),
        Math.sqrt(2.0 / (512 + 256)));
  }

  @Test
  void heIsNormalWithStdSqrtTwoOverFanIn() {
    assertNormal(sample(Init.he(), DENSE, 8), Math.sqrt(2.0 / 512));
    assertNormal(sample(Init.he(), CONV, 9), Math.sqrt(2.0 / 576));
    // MSRAPrelu's magnitude 2 / (1 + slope²).
    assertNormal(
        sample(Init.msraPrelu(Init.Factor.AVG, 0.25f), DENSE, 10), Math.sqrt(2.0 / 1.0625 / 384));
  }

  @Test
  void normalUniformConstantAndZeros() {
    assertNormal(sample(Init.normal(0.01f), DENSE, 11), 0.01);
    assertUniform(sample(Init.uniform(0.07f), DENSE, 12), 0.07);
    float[] c = sample(Init.constant(0.5f), CONV, 13);
    assertTrue(Arrays.equals(c, filled(c.length, 0.5f)), "every weight 0.5");
    float[] z = new float[100];
    Arrays.fill(z, 3f);
    Init.zeros().fill(DENSE, z, new SplittableRandom(0));
    assertArrayEquals(new float[100], z, 0f);
  }

  private static float[] filled(int n, float v) {
    float[] a = new float[n];
    Arrays.fill(a, v);
    return a;
  }

  @Test
  void samplesDependOnlyOnTheSeed() {
    for (Init init :
        List.of(Init.xavier(), Init.xavierNormal(), Init.he(), Init.normal(1f), Init.uniform(1f))) {
      float[] a = sample(init, CONV, 42);
      assertArrayEquals(a, sample(init, CONV, 42), "same seed, same values");
      assertFalse(Arrays.equals(a, sample(init, CONV, 43)), "another seed, other values");
    }
  }

  private static Graph mlp() {
    GraphBuilder b = new GraphBuilder("Mlp");
    Sym x = b.input(new NodeSource("x", "Mlp.x()", "@Input(shape = {BATCH, 6})"), Shape.of(-1, 6));
    Sym h =
        b.node(
            new NodeSource("h", "Mlp.h()", "@Dense(units = 5)"),
            DenseOp.units(5).activation(Act.RELU),
            x);
    Sym y = b.node(new NodeSource("y", "Mlp.y()", "@Dense(units = 3)"), DenseOp.units(3), h);
    return b.build(List.of(y));
  }

  private static float[][] params(ModelRuntime m) {
    return m.slots().stream().map(s -> s.weight().toFloatArray()).toArray(float[][]::new);
  }

  @Test
  void modelsWithTheSameSeedStartTheSameAndBiasesAtZero() {
    try (ModelRuntime a = new ModelRuntime("Mlp", mlp(), Init.he(), 5);
        ModelRuntime b = new ModelRuntime("Mlp", mlp(), Init.he(), 5);
        ModelRuntime c = new ModelRuntime("Mlp", mlp(), Init.he(), 6)) {
      float[][] pa = params(a);
      assertEquals(4, pa.length);
      for (int i = 0; i < pa.length; i++) {
        assertArrayEquals(pa[i], params(b)[i], "same seed: " + a.slots().get(i).name());
      }
      assertFalse(Arrays.equals(pa[0], params(c)[0]), "another seed: other h_weight");
      assertArrayEquals(new float[5], a.param("h_bias").get(), 0f);
      assertArrayEquals(new float[3], a.param("y_bias").get(), 0f);
    }
  }

  @Test
  void badArgumentsAreRejectedWithTheirValue() {
    assertEquals(
        "normal sigma must be positive and finite, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> Init.normal(0f)).getMessage());
    assertEquals(
        "uniform scale must be positive and finite, got -1.0",
        assertThrows(IllegalArgumentException.class, () -> Init.uniform(-1f)).getMessage());
    assertEquals(
        "Xavier magnitude must be positive and finite, got NaN",
        assertThrows(
                IllegalArgumentException.class,
                () -> Init.xavier(Init.Distribution.NORMAL, Init.Factor.IN, Float.NaN))
            .getMessage());
    assertEquals(
        "constant initial value must be finite, got Infinity",
        assertThrows(IllegalArgumentException.class, () -> Init.constant(Float.POSITIVE_INFINITY))
            .getMessage());
  }
}
