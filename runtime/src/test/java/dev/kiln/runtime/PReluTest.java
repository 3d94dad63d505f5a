package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.PReluOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A parametric ReLU on MXNet against a plain-Java loop ({@code x} above zero, {@code alpha[c] · x}
 * below, {@code c} the value's channel on axis 1), its gradients against finite differences and
 * against the sums they are, its slope's start, accumulation and checkpoint; with oneDNN on and, in
 * a child JVM, off.
 */
class PReluTest {
  private static ModelRuntime layers(int[] in, LayerOp... specs) {
    GraphBuilder b = new GraphBuilder("Slope");
    Sym x = b.input(new NodeSource("x", "Slope.x()", "@Input"), Shape.of(in));
    String[] names = {"conv", "act"};
    for (int i = 0; i < specs.length; i++) {
      String name = names[names.length - specs.length + i];
      x = b.node(new NodeSource(name, "Slope." + name + "()", "@L"), specs[i], x);
    }
    return new ModelRuntime("SlopeModel", b.build(List.of(x)), Init.xavier(), 7);
  }

  private static NDArray array(NDManager nd, float[] x, int[] shape) {
    return nd.create(
        x, new ai.djl.ndarray.types.Shape(Arrays.stream(shape).asLongStream().toArray()));
  }

  /** {@code n} values at least 0.1 from zero, where the ReLU's kink is: finite differences hold. */
  static float[] awayFromZero(int n, long seed) {
    Random rng = new Random(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) ((rng.nextBoolean() ? 1 : -1) * (0.1 + rng.nextDouble()));
    }
    return v;
  }

  /** The parametric ReLU of {@code x} over {@code [n, c, positions]} with slopes {@code alpha}. */
  static float[] preluReference(float[] x, int n, int c, int positions, float[] alpha) {
    float[] out = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      int ch = i / positions % c;
      out[i] = x[i] > 0 ? x[i] : alpha[ch] * x[i];
    }
    return out;
  }

  /**
   * Ranks 2 to 4, one with as many channels as columns ({@code [N, 4, 4]}, where a slope vector
   * could broadcast along the wrong axis): slopes start at 0.25, then set ones against the
   * reference.
   */
  static void definition(NDManager nd) {
    for (int[] in : new int[][] {{2, 3}, {2, 4, 4}, {2, 3, 2, 5}}) {
      int c = in[1];
      int positions = Arrays.stream(in).skip(2).reduce(1, (a, b) -> a * b);
      int[] declared = in.clone();
      declared[0] = -1;
      try (ModelRuntime m = layers(declared, PReluOp.perChannel())) {
        float[] start = new float[c];
        Arrays.fill(start, 0.25f);
        assertArrayEquals(start, m.param("act_alpha").get(), 0f);
        float[] alpha = new float[c];
        for (int i = 0; i < c; i++) {
          alpha[i] = -0.5f + 0.4f * i;
        }
        m.param("act_alpha").set(alpha);
        float[] x = awayFromZero(2 * c * positions, 1);
        float[] y = m.forward(array(nd, x, in))[0].toFloatArray();
        assertArrayEquals(preluReference(x, 2, c, positions, alpha), y, 1e-6f, Arrays.toString(in));
      }
    }
  }

  /** The slopes' and the input's gradients against finite differences, ranks 2 to 4. */
  static void gradients(NDManager nd) {
    for (int[] in : new int[][] {{2, 3}, {2, 4, 4}, {2, 3, 2, 5}}) {
      int size = Arrays.stream(in).reduce(1, (a, b) -> a * b);
      int[] declared = in.clone();
      declared[0] = -1;
      try (ModelRuntime m = layers(declared, PReluOp.perChannel())) {
        long[] shape = Arrays.stream(in).asLongStream().toArray();
        int n =
            new GradientCheck(m, nd, new long[][] {shape}, 2)
                .withInput(0, awayFromZero(size, 3))
                .run();
        assertEquals(in[1] + size, n, Arrays.toString(in));
      }
    }
  }

  /**
   * After a convolution (whose oneDNN output is in a blocked layout): the output is the reference
   * of the convolution's own output, and each slope's gradient is the sum of {@code head · x} over
   * its channel's negative inputs, doubled by a second backward pass (gradients accumulate).
   */
  static void afterAConvolution(NDManager nd) {
    int[] in = {2, 3, 6, 6};
    float[] x = awayFromZero(2 * 3 * 36, 4);
    float[] weights = awayFromZero(16 * 3 * 9, 7);
    float[] conv;
    try (ModelRuntime m = layers(new int[] {-1, 3, 6, 6}, ConvOp.filters(16).kernel(3, 3))) {
      m.param("act_weight").set(weights);
      conv = m.forward(array(nd, x, in))[0].toFloatArray();
    }
    try (ModelRuntime m =
        layers(new int[] {-1, 3, 6, 6}, ConvOp.filters(16).kernel(3, 3), PReluOp.perChannel())) {
      m.param("conv_weight").set(weights);
      float[] alpha = awayFromZero(16, 5);
      m.param("act_alpha").set(alpha);
      float[] head = awayFromZero(conv.length, 6);
      m.setTraining(true);
      float[] y = m.forward(array(nd, x, in))[0].toFloatArray();
      assertArrayEquals(preluReference(conv, 2, 16, 16, alpha), y, 1e-5f);
      NDArray heads = nd.create(head, new ai.djl.ndarray.types.Shape(2, 16, 4, 4));
      m.backward(heads);
      float[] expected = new float[16];
      for (int i = 0; i < conv.length; i++) {
        if (conv[i] <= 0) {
          expected[i / 16 % 16] += head[i] * conv[i];
        }
      }
      assertArrayEquals(expected, m.param("act_alpha").grad(), 1e-4f);
      m.forward(array(nd, x, in));
      m.backward(heads);
      float[] twice = expected.clone();
      for (int i = 0; i < twice.length; i++) {
        twice[i] *= 2;
      }
      assertArrayEquals(twice, m.param("act_alpha").grad(), 2e-4f);
      m.setTraining(false);
    }
  }

  /**
   * After another node (an identity reshape), where MXNet 1.9.1's own {@code LeakyReLU} backward
   * computes the slope's gradient from the output's gradient it already overwrote: the slope's and
   * the input's gradients against finite differences.
   */
  static void afterAnotherNode(NDManager nd) {
    try (ModelRuntime m =
        layers(new int[] {-1, 4, 3, 2}, ReshapeOp.of(0, 0, 0, 0), PReluOp.perChannel())) {
      m.param("act_alpha").set(new float[] {0.25f, -0.5f, 0.75f, 1.5f});
      int n =
          new GradientCheck(m, nd, new long[][] {{2, 4, 3, 2}}, 8)
              .withInput(0, awayFromZero(48, 9))
              .run();
      assertEquals(4 + 48, n);
    }
  }

  /** Every check, by name. */
  private static final Map<String, Consumer<NDManager>> CHECKS =
      Map.of(
          "definition", PReluTest::definition,
          "gradients", PReluTest::gradients,
          "afterAConvolution", PReluTest::afterAConvolution,
          "afterAnotherNode", PReluTest::afterAnotherNode);

  /** Runs every check (with {@code MXNET_MKLDNN_ENABLED=0}: on MXNet's own kernels). */
  public static void main(String[] args) {
    OneDnnOff.main(CHECKS);
  }

  private static void check(String name) {
    try (NDManager nd = NDManager.newBaseManager()) {
      CHECKS.get(name).accept(nd);
    }
  }

  @Test
  void slopesStartAtAQuarterAndScaleEachChannelBelowZero() {
    check("definition");
  }

  @Test
  void slopeAndInputGradientsAreFiniteDifferences() {
    check("gradients");
  }

  @Test
  void afterAConvolutionTheSlopeGradientIsItsSumAndAccumulates() {
    check("afterAConvolution");
  }

  @Test
  void afterAnotherNodeBothGradientsAreFiniteDifferences() {
    check("afterAnotherNode");
  }

  @Test
  void withoutOneDnnTheSameChecksPass() throws IOException, InterruptedException {
    OneDnnOff.assertAllPass(PReluTest.class, CHECKS);
  }

  @Test
  void theSlopesAreSavedAndLoadedAsAlpha() throws IOException {
    Path dir = Files.createTempDirectory("prelu");
    try (ModelRuntime m = layers(new int[] {-1, 3}, PReluOp.perChannel());
        ModelRuntime back = layers(new int[] {-1, 3}, PReluOp.perChannel())) {
      m.param("act_alpha").set(new float[] {0.1f, -0.2f, 0.3f});
      Path prefix = dir.resolve("slope");
      m.save(prefix);
      assertTrue(m.symbolJson().contains("\"act_alpha\""), m.symbolJson());
      back.loadParams(prefix);
      assertArrayEquals(new float[] {0.1f, -0.2f, 0.3f}, back.param("act_alpha").get(), 0f);
    } finally {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
    }
  }
}
