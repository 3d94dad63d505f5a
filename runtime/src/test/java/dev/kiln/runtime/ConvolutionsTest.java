package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DeconvOp;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 1-D, grouped and transposed convolutions on MXNet against plain-Java loops written from the
 * definitions (a correlation over each group's channels; a transposed convolution as the scatter of
 * every input value over its window), and their gradients against finite differences.
 */
class ConvolutionsTest {
  private static ModelRuntime layer(int[] in, LayerOp spec) {
    GraphBuilder b = new GraphBuilder("Conv");
    Sym x = b.input(new NodeSource("x", "Conv.x()", "@Input"), Shape.of(in));
    Sym y = b.node(new NodeSource("c", "Conv.c()", "@Conv"), spec, x);
    Graph g = b.build(List.of(y));
    return new ModelRuntime("ConvModel", g, Init.xavier(), 7);
  }

  private static float[] random(Random rng, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return v;
  }

  private static float[] forward(ModelRuntime m, NDManager nd, float[] x, long... shape) {
    return m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(shape)))[0].toFloatArray();
  }

  /**
   * A 2-D convolution from its definition: out[n, f, i, j] = bias[f] + sum over the group's
   * channels c and taps (u, v) of w[f, c, u, v] * x[n, g*Cg + c, i*s - p + u*d, j*s - p + v*d],
   * with zeros outside the image. A 1-D convolution is the case height 1, kernel height 1.
   */
  private static float[] convReference(
      float[] x,
      int n,
      int c,
      int h,
      int w,
      float[] wt,
      float[] bias,
      int f,
      int kh,
      int kw,
      int s,
      int p,
      int d,
      int groups,
      int ph) {
    int oh = (h + 2 * ph - d * (kh - 1) - 1) / s + 1;
    int ow = (w + 2 * p - d * (kw - 1) - 1) / s + 1;
    int cg = c / groups;
    int fg = f / groups;
    float[] out = new float[n * f * oh * ow];
    for (int b = 0; b < n; b++) {
      for (int o = 0; o < f; o++) {
        int g = o / fg;
        for (int i = 0; i < oh; i++) {
          for (int j = 0; j < ow; j++) {
            double sum = bias[o];
            for (int ci = 0; ci < cg; ci++) {
              for (int u = 0; u < kh; u++) {
                for (int v = 0; v < kw; v++) {
                  int y = i * s - ph + u * d;
                  int xx = j * s - p + v * d;
                  if (y < 0 || y >= h || xx < 0 || xx >= w) {
                    continue;
                  }
                  int ch = g * cg + ci;
                  sum += wt[((o * cg + ci) * kh + u) * kw + v] * x[((b * c + ch) * h + y) * w + xx];
                }
              }
            }
            out[((b * f + o) * oh + i) * ow + j] = (float) sum;
          }
        }
      }
    }
    return out;
  }

  @Test
  void aOneDimensionalConvolutionIsTheDefinitionAlongTheWidth() {
    Random rng = new Random(1);
    // 2 signals of 3 channels, width 11; 4 filters of width 3, stride 2, pad 1, dilation 2.
    try (ModelRuntime m =
            layer(new int[] {-1, 3, 11}, ConvOp.filters(4).kernel(3).stride(2).pad(1).dilation(2));
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(4, 3, 3), m.param("c_weight").shape());
      float[] w = random(rng, 36);
      float[] bias = random(rng, 4);
      m.param("c_weight").set(w);
      m.param("c_bias").set(bias);
      float[] x = random(rng, 2 * 3 * 11);
      float[] expected = convReference(x, 2, 3, 1, 11, w, bias, 4, 1, 3, 2, 1, 2, 1, 0);
      assertEquals(2 * 4 * 5, expected.length);
      assertArrayEquals(expected, forward(m, nd, x, 2, 3, 11), 1e-4f);
    }
  }

  @Test
  void aGroupedConvolutionConvolvesEachGroupWithItsOwnFilters() {
    Random rng = new Random(2);
    // 4 channels in 2 groups, 6 filters (3 per group), 3x2 kernel, pad 1.
    try (ModelRuntime m =
            layer(new int[] {-1, 4, 5, 4}, ConvOp.filters(6).kernel(3, 2).pad(1, 1).groups(2));
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(6, 2, 3, 2), m.param("c_weight").shape());
      float[] w = random(rng, 6 * 2 * 3 * 2);
      float[] bias = random(rng, 6);
      m.param("c_weight").set(w);
      m.param("c_bias").set(bias);
      float[] x = random(rng, 2 * 4 * 5 * 4);
      float[] expected = convReference(x, 2, 4, 5, 4, w, bias, 6, 3, 2, 1, 1, 1, 2, 1);
      assertArrayEquals(expected, forward(m, nd, x, 2, 4, 5, 4), 1e-4f);
    }
  }

  @Test
  void aDepthwiseConvolutionHasOneFilterPerChannel() {
    Random rng = new Random(3);
    try (ModelRuntime m = layer(new int[] {-1, 3, 4, 4}, ConvOp.filters(3).kernel(3, 3).groups(3));
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(3, 1, 3, 3), m.param("c_weight").shape());
      float[] w = random(rng, 27);
      float[] bias = random(rng, 3);
      m.param("c_weight").set(w);
      m.param("c_bias").set(bias);
      float[] x = random(rng, 3 * 16);
      float[] expected = convReference(x, 1, 3, 4, 4, w, bias, 3, 3, 3, 1, 0, 1, 3, 0);
      assertArrayEquals(expected, forward(m, nd, x, 1, 3, 4, 4), 1e-4f);
    }
  }

  /**
   * A transposed convolution from its definition: every input value x[n, c, i, j] adds x * w[c, f',
   * u, v] to out[n, g*Fg + f', i*s - p + u*d, j*s - p + v*d] for the filters f' of its group g,
   * inside an output of s*(size - 1) + d*(k - 1) + 1 - 2p + adj.
   */
  private static float[] deconvReference(
      float[] x,
      int n,
      int c,
      int h,
      int w,
      float[] wt,
      float[] bias,
      int f,
      int k,
      int s,
      int p,
      int adj,
      int d,
      int groups) {
    int oh = s * (h - 1) + d * (k - 1) + 1 - 2 * p + adj;
    int ow = s * (w - 1) + d * (k - 1) + 1 - 2 * p + adj;
    int cg = c / groups;
    int fg = f / groups;
    double[] out = new double[n * f * oh * ow];
    for (int b = 0; b < n; b++) {
      for (int o = 0; o < f; o++) {
        for (int i = 0; i < oh * ow; i++) {
          out[(b * f + o) * oh * ow + i] = bias[o];
        }
      }
      for (int ch = 0; ch < c; ch++) {
        int g = ch / cg;
        for (int i = 0; i < h; i++) {
          for (int j = 0; j < w; j++) {
            float v = x[((b * c + ch) * h + i) * w + j];
            for (int fo = 0; fo < fg; fo++) {
              for (int u = 0; u < k; u++) {
                for (int t = 0; t < k; t++) {
                  int y = i * s - p + u * d;
                  int xx = j * s - p + t * d;
                  if (y < 0 || y >= oh || xx < 0 || xx >= ow) {
                    continue;
                  }
                  int o = g * fg + fo;
                  out[((b * f + o) * oh + y) * ow + xx] += v * wt[((ch * fg + fo) * k + u) * k + t];
                }
              }
            }
          }
        }
      }
    }
    float[] r = new float[out.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = (float) out[i];
    }
    return r;
  }

  @Test
  void aTransposedConvolutionIsTheScatterOfItsInputs() {
    Random rng = new Random(4);
    // 4 channels in 2 groups, 3x3 -> 6 filters, kernel 3, stride 2, pad 1, outputPad 1: 6x6.
    try (ModelRuntime m =
            layer(
                new int[] {-1, 4, 3, 3},
                DeconvOp.filters(6).kernel(3, 3).stride(2, 2).pad(1, 1).outputPad(1, 1).groups(2));
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(4, 3, 3, 3), m.param("c_weight").shape());
      float[] w = random(rng, 4 * 3 * 9);
      float[] bias = random(rng, 6);
      m.param("c_weight").set(w);
      m.param("c_bias").set(bias);
      float[] x = random(rng, 2 * 4 * 9);
      float[] expected = deconvReference(x, 2, 4, 3, 3, w, bias, 6, 3, 2, 1, 1, 1, 2);
      assertEquals(2 * 6 * 6 * 6, expected.length);
      assertArrayEquals(expected, forward(m, nd, x, 2, 4, 3, 3), 1e-4f);
    }
  }

  @Test
  void aDilatedTransposedConvolutionWithGapsAndWithoutBiasToo() {
    Random rng = new Random(5);
    try (ModelRuntime m =
            layer(
                new int[] {-1, 2, 4, 4},
                DeconvOp.filters(3).kernel(2, 2).stride(3, 3).dilation(2, 2).withoutBias());
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(1, m.graph().params().size());
      float[] w = random(rng, 2 * 3 * 4);
      m.param("c_weight").set(w);
      float[] x = random(rng, 2 * 16);
      float[] expected = deconvReference(x, 1, 2, 4, 4, w, new float[3], 3, 2, 3, 0, 0, 2, 1);
      assertArrayEquals(expected, forward(m, nd, x, 1, 2, 4, 4), 1e-4f);
    }
  }

  /**
   * One filter over 16 channels: oneDNN cannot run this layer's backward pass in MXNet 1.9.1, so
   * Kiln runs it on MXNet's own kernel in float64; forward and gradients must still be right.
   */
  @Test
  void aTransposedConvolutionToOneFilterFromSixteenChannels() {
    Random rng = new Random(6);
    try (ModelRuntime m =
            layer(new int[] {-1, 16, 3, 3}, DeconvOp.filters(1).kernel(2, 2).stride(2, 2));
        NDManager nd = NDManager.newBaseManager()) {
      float[] w = random(rng, 16 * 4);
      float[] bias = random(rng, 1);
      m.param("c_weight").set(w);
      m.param("c_bias").set(bias);
      float[] x = random(rng, 2 * 16 * 9);
      float[] expected = deconvReference(x, 2, 16, 3, 3, w, bias, 1, 2, 2, 0, 0, 1, 1);
      assertArrayEquals(expected, forward(m, nd, x, 2, 16, 3, 3), 1e-4f);
      int n = new GradientCheck(m, nd, new long[][] {{1, 16, 3, 3}}, 14).run();
      assertEquals(16 * 4 + 1 + 16 * 9, n);
    }
  }

  @Test
  void theirGradientsAreFiniteDifferences() {
    try (NDManager nd = NDManager.newBaseManager()) {
      try (ModelRuntime m =
          layer(new int[] {-1, 2, 7}, ConvOp.filters(3).kernel(3).stride(2).pad(1))) {
        int n = new GradientCheck(m, nd, new long[][] {{2, 2, 7}}, 11).run();
        assertEquals(3 * 2 * 3 + 3 + 2 * 2 * 7, n);
      }
      try (ModelRuntime m =
          layer(new int[] {-1, 4, 4, 4}, ConvOp.filters(2).kernel(2, 2).groups(2))) {
        int n = new GradientCheck(m, nd, new long[][] {{1, 4, 4, 4}}, 12).run();
        assertEquals(2 * 2 * 4 + 2 + 64, n);
      }
      try (ModelRuntime m =
          layer(
              new int[] {-1, 2, 3, 3},
              DeconvOp.filters(2).kernel(3, 3).stride(2, 2).pad(1, 1).outputPad(1, 1))) {
        int n = new GradientCheck(m, nd, new long[][] {{1, 2, 3, 3}}, 13).run();
        assertEquals(2 * 2 * 9 + 2 + 18, n);
      }
    }
  }
}
