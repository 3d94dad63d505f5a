package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.AttentionOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Multi-head attention ({@link AttentionOp}) on MXNet against a plain-Java reference written from
 * the definition, with and without valid lengths and causality, self and cross; its gradients
 * against finite differences.
 */
class AttentionTest {
  /** One attention node over inputs of the given shapes (the last one the lengths, if any). */
  static ModelRuntime attention(AttentionOp spec, int[]... inputs) {
    GraphBuilder b = new GraphBuilder("Att");
    List<Sym> xs = new ArrayList<>();
    String[] names = {"query", "key", "value"};
    for (int i = 0; i < inputs.length; i++) {
      boolean isLengths = spec.lengths() && i == inputs.length - 1;
      String name = isLengths ? "lengths" : names[i];
      xs.add(b.input(new NodeSource(name, "Att." + name + "()", "@Input"), Shape.of(inputs[i])));
    }
    Sym y =
        b.node(
            new NodeSource("att", "Att.att()", "@MultiHeadAttention"),
            spec,
            xs.toArray(new Sym[0]));
    Graph g = b.build(List.of(y));
    return new ModelRuntime("AttModel", g, Init.xavier(), 7);
  }

  static float[] random(Random rng, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return v;
  }

  /** Gives every parameter of {@code m} random values (biases too) and returns them by name. */
  static java.util.Map<String, float[]> randomise(ModelRuntime m, Random rng) {
    java.util.Map<String, float[]> values = new java.util.HashMap<>();
    for (var slot : m.slots()) {
      float[] v = random(rng, m.param(slot.name()).get().length);
      for (int i = 0; i < v.length; i++) {
        v[i] *= 0.5f;
      }
      m.param(slot.name()).set(v);
      values.put(slot.name(), v);
    }
    return values;
  }

  /** {@code x W^T + b} over the last axis: x {@code [rows, in]}, W {@code [out, in]}. */
  static double[] project(float[] x, int rows, int in, float[] w, float[] b, int out) {
    double[] y = new double[rows * out];
    for (int r = 0; r < rows; r++) {
      for (int o = 0; o < out; o++) {
        double s = b == null ? 0 : b[o];
        for (int i = 0; i < in; i++) {
          s += (double) x[r * in + i] * w[o * in + i];
        }
        y[r * out + o] = s;
      }
    }
    return y;
  }

  /**
   * Multi-head attention from its definition: query {@code [n, t, width]}, key and value {@code [n,
   * s, kvWidth]}; row {@code i} of example {@code e} sees key steps {@code j < visible}, where
   * {@code visible = min(lengths[e], causal ? i + 1 : s)}.
   */
  static float[] reference(
      java.util.Map<String, float[]> p,
      float[] query,
      float[] key,
      float[] value,
      float[] lengths,
      int n,
      int t,
      int s,
      int width,
      int kvWidth,
      int heads,
      int dk,
      int dv,
      boolean causal) {
    double[] q =
        project(
            query, n * t, width, p.get("att_query_weight"), p.get("att_query_bias"), heads * dk);
    double[] k =
        project(key, n * s, kvWidth, p.get("att_key_weight"), p.get("att_key_bias"), heads * dk);
    double[] v =
        project(
            value, n * s, kvWidth, p.get("att_value_weight"), p.get("att_value_bias"), heads * dv);
    float[] context = new float[n * t * heads * dv];
    for (int e = 0; e < n; e++) {
      for (int h = 0; h < heads; h++) {
        for (int i = 0; i < t; i++) {
          int visible = lengths == null ? s : (int) lengths[e];
          if (causal) {
            visible = Math.min(visible, i + 1);
          }
          double[] score = new double[s];
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < visible; j++) {
            double dot = 0;
            for (int d = 0; d < dk; d++) {
              dot +=
                  q[(e * t + i) * heads * dk + h * dk + d]
                      * k[(e * s + j) * heads * dk + h * dk + d];
            }
            score[j] = dot / Math.sqrt(dk);
            max = Math.max(max, score[j]);
          }
          double sum = 0;
          for (int j = 0; j < visible; j++) {
            score[j] = Math.exp(score[j] - max);
            sum += score[j];
          }
          for (int d = 0; d < dv; d++) {
            double c = 0;
            for (int j = 0; j < visible; j++) {
              c += score[j] / sum * v[(e * s + j) * heads * dv + h * dv + d];
            }
            context[(e * t + i) * heads * dv + h * dv + d] = (float) c;
          }
        }
      }
    }
    double[] out =
        project(
            context,
            n * t,
            heads * dv,
            p.get("att_output_weight"),
            p.get("att_output_bias"),
            width);
    float[] result = new float[out.length];
    for (int i = 0; i < out.length; i++) {
      result[i] = (float) out[i];
    }
    return result;
  }

  private static float[] forward(ModelRuntime m, NDManager nd, float[][] xs, long[][] shapes) {
    NDArray[] in = new NDArray[xs.length];
    for (int i = 0; i < xs.length; i++) {
      in[i] = nd.create(xs[i], new ai.djl.ndarray.types.Shape(shapes[i]));
    }
    return m.forward(in)[0].toFloatArray();
  }

  @Test
  void selfAttentionIsTheDefinition() {
    Random rng = new Random(1);
    int n = 3, t = 5, w = 8, heads = 2;
    try (ModelRuntime m = attention(AttentionOp.heads(heads).width(w), new int[] {-1, t, w});
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(8, 8), m.param("att_query_weight").shape());
      assertEquals(Shape.of(8), m.param("att_output_bias").shape());
      var p = randomise(m, rng);
      float[] x = random(rng, n * t * w);
      float[] expected = reference(p, x, x, x, null, n, t, t, w, w, heads, 4, 4, false);
      float[] actual = forward(m, nd, new float[][] {x}, new long[][] {{n, t, w}});
      assertArrayEquals(expected, actual, 1e-5f);
    }
  }

  @Test
  void crossAttentionWithItsOwnSizesIsTheDefinition() {
    Random rng = new Random(2);
    // 4 query steps of width 6 attend to 7 key steps of width 5; 3 heads of keys 2 and values 3.
    int n = 2, t = 4, s = 7, w = 6, kv = 5, heads = 3, dk = 2, dv = 3;
    AttentionOp spec = AttentionOp.heads(heads).width(w).keyDim(dk).valueDim(dv).cross();
    try (ModelRuntime m =
            attention(spec, new int[] {-1, t, w}, new int[] {-1, s, kv}, new int[] {-1, s, kv});
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(heads * dk, kv), m.param("att_key_weight").shape());
      assertEquals(Shape.of(heads * dv, kv), m.param("att_value_weight").shape());
      assertEquals(Shape.of(w, heads * dv), m.param("att_output_weight").shape());
      var p = randomise(m, rng);
      float[] q = random(rng, n * t * w);
      float[] k = random(rng, n * s * kv);
      float[] v = random(rng, n * s * kv);
      float[] expected = reference(p, q, k, v, null, n, t, s, w, kv, heads, dk, dv, false);
      float[] actual =
          forward(m, nd, new float[][] {q, k, v}, new long[][] {{n, t, w}, {n, s, kv}, {n, s, kv}});
      assertArrayEquals(expected, actual, 1e-5f);
    }
  }

  @Test
  void validLengthsMaskThePaddedKeySteps() {
    Random rng = new Random(3);
    int n = 3, t = 6, w = 8, heads = 4;
    AttentionOp spec = AttentionOp.heads(heads).width(w).withLengths();
    try (ModelRuntime m = attention(spec, new int[] {-1, t, w}, new int[] {-1});
        NDManager nd = NDManager.newBaseManager()) {
      var p = randomise(m, rng);
      float[] x = random(rng, n * t * w);
      float[] lengths = {2, 6, 4};
      float[] expected = reference(p, x, x, x, lengths, n, t, t, w, w, heads, 2, 2, false);
      float[] actual = forward(m, nd, new float[][] {x, lengths}, new long[][] {{n, t, w}, {n}});
      assertArrayEquals(expected, actual, 1e-5f);
      // What a padded key step holds does not matter: change example 0's steps 2 to 5.
      for (int i = 2 * w; i < t * w; i++) {
        x[i] = 100;
      }
      float[] again = forward(m, nd, new float[][] {x, lengths}, new long[][] {{n, t, w}, {n}});
      for (int i = 0; i < 2 * w; i++) {
        assertEquals(actual[i], again[i], 1e-5f, "example 0, step " + i / w);
      }
    }
  }

  @Test
  void lengthsOutsideTheKeyStepsAreHeldWithinThem() {
    Random rng = new Random(7);
    int n = 4, t = 3, w = 4, heads = 2;
    AttentionOp spec = AttentionOp.heads(heads).width(w).withLengths();
    try (ModelRuntime m = attention(spec, new int[] {-1, t, w}, new int[] {-1});
        NDManager nd = NDManager.newBaseManager()) {
      var p = randomise(m, rng);
      float[] x = random(rng, n * t * w);
      float[] given = {-2, 0, 1000, 2.9f};
      float[] held = {0, 0, 3, 2};
      float[] expected = reference(p, x, x, x, held, n, t, t, w, w, heads, 2, 2, false);
      float[] actual = forward(m, nd, new float[][] {x, given}, new long[][] {{n, t, w}, {n}});
      assertArrayEquals(expected, actual, 1e-5f);
    }
  }

  @Test
  void aCausalAttentionOverAnyNumberOfStepsGivesEachPrefixItsOwnOutput() {
    Random rng = new Random(8);
    int n = 2, w = 4, heads = 2;
    try (ModelRuntime m =
            attention(AttentionOp.heads(heads).width(w).causal(), new int[] {-1, -5, w});
        NDManager nd = NDManager.newBaseManager()) {
      var p = randomise(m, rng);
      float[] x = random(rng, n * 5 * w);
      float[] long5 = forward(m, nd, new float[][] {x}, new long[][] {{n, 5, w}});
      assertArrayEquals(
          reference(p, x, x, x, null, n, 5, 5, w, w, heads, 2, 2, true), long5, 1e-5f);
      // The first 3 steps alone: a causal output at step t reads steps 0 to t only, so the
      // prefix's outputs are the longer sequence's first 3.
      float[] x3 = new float[n * 3 * w];
      for (int e = 0; e < n; e++) {
        System.arraycopy(x, e * 5 * w, x3, e * 3 * w, 3 * w);
      }
      float[] short3 = forward(m, nd, new float[][] {x3}, new long[][] {{n, 3, w}});
      for (int e = 0; e < n; e++) {
        for (int i = 0; i < 3 * w; i++) {
          assertEquals(long5[e * 5 * w + i], short3[e * 3 * w + i], 1e-5f);
        }
      }
    }
  }

  @Test
  void causalAttentionSeesOnlyEarlierSteps() {
    Random rng = new Random(4);
    int n = 2, t = 5, w = 6, heads = 2;
    try (ModelRuntime m =
            attention(AttentionOp.heads(heads).width(w).causal(), new int[] {-1, t, w});
        NDManager nd = NDManager.newBaseManager()) {
      var p = randomise(m, rng);
      float[] x = random(rng, n * t * w);
      float[] expected = reference(p, x, x, x, null, n, t, t, w, w, heads, 3, 3, true);
      float[] actual = forward(m, nd, new float[][] {x}, new long[][] {{n, t, w}});
      assertArrayEquals(expected, actual, 1e-5f);
    }
  }

  @Test
  void causalCrossAttentionWithLengthsTakesTheSmallerLimit() {
    Random rng = new Random(5);
    int n = 3, t = 5, w = 4, kv = 3, heads = 2;
    AttentionOp spec = AttentionOp.heads(heads).width(w).cross().causal().withLengths();
    try (ModelRuntime m =
            attention(
                spec,
                new int[] {-1, t, w},
                new int[] {-1, t, kv},
                new int[] {-1, t, kv},
                new int[] {-1});
        NDManager nd = NDManager.newBaseManager()) {
      var p = randomise(m, rng);
      float[] q = random(rng, n * t * w);
      float[] k = random(rng, n * t * kv);
      float[] v = random(rng, n * t * kv);
      float[] lengths = {3, 5, 1};
      float[] expected = reference(p, q, k, v, lengths, n, t, t, w, kv, heads, 2, 2, true);
      float[] actual =
          forward(
              m,
              nd,
              new float[][] {q, k, v, lengths},
              new long[][] {{n, t, w}, {n, t, kv}, {n, t, kv}, {n}});
      assertArrayEquals(expected, actual, 1e-5f);
    }
  }

  @Test
  void withoutBiasThereAreFourWeightsOnly() {
    try (ModelRuntime m =
        attention(AttentionOp.heads(2).width(4).withoutBias(), new int[] {-1, 3, 4})) {
      assertEquals(
          List.of("att_query_weight", "att_key_weight", "att_value_weight", "att_output_weight"),
          m.slots().stream().map(s -> s.name()).toList());
    }
  }

  @Test
  void gradientsAgreeWithFiniteDifferences() {
    try (ModelRuntime m = attention(AttentionOp.heads(2).width(4), new int[] {-1, 3, 4});
        NDManager nd = NDManager.newBaseManager()) {
      int checked = new GradientCheck(m, nd, new long[][] {{2, 3, 4}}, 11).run();
      assertTrue(checked > 100, "checked " + checked);
    }
  }

  @Test
  void causalGradientsAgreeWithFiniteDifferences() {
    try (ModelRuntime m = attention(AttentionOp.heads(2).width(4).causal(), new int[] {-1, 4, 4});
        NDManager nd = NDManager.newBaseManager()) {
      int checked = new GradientCheck(m, nd, new long[][] {{2, 4, 4}}, 14).run();
      assertTrue(checked > 100, "checked " + checked);
    }
  }

  @Test
  void maskedGradientsAgreeWithFiniteDifferences() {
    AttentionOp spec = AttentionOp.heads(2).width(4).withLengths();
    try (ModelRuntime m = attention(spec, new int[] {-1, 4, 4}, new int[] {-1});
        NDManager nd = NDManager.newBaseManager()) {
      int checked =
          new GradientCheck(m, nd, new long[][] {{3, 4, 4}, {3}}, 15)
              .withInput(1, new float[] {1, 4, 2})
              .skipInputGradient(1)
              .run();
      assertTrue(checked > 100, "checked " + checked);
    }
  }

  @Test
  void maskedCausalGradientsAgreeWithFiniteDifferences() {
    AttentionOp spec = AttentionOp.heads(2).width(4).causal().withLengths();
    try (ModelRuntime m = attention(spec, new int[] {-1, 4, 4}, new int[] {-1});
        NDManager nd = NDManager.newBaseManager()) {
      new GradientCheck(m, nd, new long[][] {{3, 4, 4}, {3}}, 12)
          .withInput(1, new float[] {2, 4, 3})
          .skipInputGradient(1)
          .run();
    }
  }

  @Test
  void maskedCrossGradientsAgreeWithFiniteDifferences() {
    AttentionOp spec = AttentionOp.heads(3).width(3).keyDim(2).cross().withLengths();
    try (ModelRuntime m =
            attention(
                spec,
                new int[] {-1, 2, 3},
                new int[] {-1, 4, 2},
                new int[] {-1, 4, 2},
                new int[] {-1});
        NDManager nd = NDManager.newBaseManager()) {
      new GradientCheck(m, nd, new long[][] {{2, 2, 3}, {2, 4, 2}, {2, 4, 2}, {2}}, 13)
          .withInput(3, new float[] {1, 3})
          .skipInputGradient(3)
          .run();
    }
  }

  @Test
  void dropoutActsInTrainingOnly() {
    Random rng = new Random(6);
    int n = 2, t = 6, w = 4;
    try (ModelRuntime m =
            attention(AttentionOp.heads(2).width(w).dropout(0.5), new int[] {-1, t, w});
        NDManager nd = NDManager.newBaseManager()) {
      var p = randomise(m, rng);
      float[] x = random(rng, n * t * w);
      long[][] shape = {{n, t, w}};
      float[] expected = reference(p, x, x, x, null, n, t, t, w, w, 2, 2, 2, false);
      assertArrayEquals(expected, forward(m, nd, new float[][] {x}, shape), 1e-5f);
      m.setTraining(true);
      float[] trained = forward(m, nd, new float[][] {x}, shape);
      m.setTraining(false);
      boolean differs = false;
      for (int i = 0; i < expected.length; i++) {
        differs |= Math.abs(trained[i] - expected[i]) > 1e-3;
      }
      assertTrue(differs, "a training pass with dropout 0.5 dropped nothing");
    }
  }

  /** The checks above that compare with the definition and with finite differences. */
  private static final List<String> CHECKS =
      List.of(
          "selfAttentionIsTheDefinition",
          "crossAttentionWithItsOwnSizesIsTheDefinition",
          "validLengthsMaskThePaddedKeySteps",
          "causalAttentionSeesOnlyEarlierSteps",
          "causalCrossAttentionWithLengthsTakesTheSmallerLimit",
          "gradientsAgreeWithFiniteDifferences",
          "causalGradientsAgreeWithFiniteDifferences",
          "maskedGradientsAgreeWithFiniteDifferences",
          "maskedCausalGradientsAgreeWithFiniteDifferences",
          "maskedCrossGradientsAgreeWithFiniteDifferences");

  @Test
  void everyCheckHoldsWithoutOneDnn() throws Exception {
    TestJvm.Outcome child =
        TestJvm.run(AttentionTest.class, java.util.Map.of("MXNET_MKLDNN_ENABLED", "0"), 300);
    assertTrue(child.finished(), child.output());
    for (String check : CHECKS) {
      assertTrue(child.output().contains("PASSED " + check), check + ":\n" + child.output());
    }
    assertEquals(0, child.exitValue(), child.output());
  }

  /** Runs {@link #CHECKS} (in a JVM without oneDNN), printing {@code PASSED <check>} for each. */
  public static void main(String[] args) throws Exception {
    AttentionTest test = new AttentionTest();
    int failed = 0;
    for (String check : CHECKS) {
      try {
        AttentionTest.class.getDeclaredMethod(check).invoke(test);
        System.out.println("PASSED " + check);
      } catch (java.lang.reflect.InvocationTargetException e) {
        failed++;
        System.out.println("FAILED " + check + ": " + e.getCause());
      }
    }
    System.exit(failed == 0 ? 0 : 1);
  }
}
