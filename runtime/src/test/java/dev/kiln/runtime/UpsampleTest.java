package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.UpsampleOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code @Upsample} on MXNet against plain-Java loops written from the definitions (nearest: each
 * value repeated; bilinear: linear in each axis, the corners aligned), and its gradients against
 * finite differences; with oneDNN on and, in a child JVM, off.
 */
class UpsampleTest {
  private static ModelRuntime layer(int[] in, UpsampleOp op) {
    GraphBuilder b = new GraphBuilder("Up");
    Sym x = b.input(new NodeSource("x", "Up.x()", "@Input"), Shape.of(in));
    Sym y = b.node(new NodeSource("up", "Up.up()", "@Upsample"), op, x);
    return new ModelRuntime("UpModel", b.build(List.of(y)), Init.xavier(), 7);
  }

  /** Each value of {@code [planes, h, w]} repeated {@code s} × {@code s} times. */
  static float[] nearest(float[] x, int planes, int h, int w, int s) {
    float[] out = new float[planes * h * s * w * s];
    for (int p = 0; p < planes; p++) {
      for (int i = 0; i < h * s; i++) {
        for (int j = 0; j < w * s; j++) {
          out[(p * h * s + i) * w * s + j] = x[(p * h + i / s) * w + j / s];
        }
      }
    }
    return out;
  }

  /**
   * Bilinear resizing of {@code [planes, h, w]} to {@code s} times the size, the corners aligned:
   * output row {@code i} samples input row {@code i · (h - 1) / (h · s - 1)}, and likewise columns.
   */
  static float[] bilinear(float[] x, int planes, int h, int w, int s) {
    int oh = h * s;
    int ow = w * s;
    float[] out = new float[planes * oh * ow];
    for (int p = 0; p < planes; p++) {
      for (int i = 0; i < oh; i++) {
        double y = oh > 1 ? i * (h - 1.0) / (oh - 1) : 0;
        int y0 = (int) Math.floor(y);
        int y1 = Math.min(y0 + 1, h - 1);
        double dy = y - y0;
        for (int j = 0; j < ow; j++) {
          double xs = ow > 1 ? j * (w - 1.0) / (ow - 1) : 0;
          int x0 = (int) Math.floor(xs);
          int x1 = Math.min(x0 + 1, w - 1);
          double dx = xs - x0;
          double v =
              (1 - dy) * ((1 - dx) * at(x, p, y0, x0, h, w) + dx * at(x, p, y0, x1, h, w))
                  + dy * ((1 - dx) * at(x, p, y1, x0, h, w) + dx * at(x, p, y1, x1, h, w));
          out[(p * oh + i) * ow + j] = (float) v;
        }
      }
    }
    return out;
  }

  private static double at(float[] x, int p, int i, int j, int h, int w) {
    return x[(p * h + i) * w + j];
  }

  private static float[] random(Random rng, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return v;
  }

  /** Both modes at scales 1 to 3 over images of odd and even sizes, against the references. */
  static void definition(NDManager nd) {
    Random rng = new Random(3);
    for (int s = 1; s <= 3; s++) {
      for (int[] hw : new int[][] {{3, 4}, {5, 2}}) {
        int h = hw[0];
        int w = hw[1];
        float[] x = random(rng, 2 * 3 * h * w);
        ai.djl.ndarray.types.Shape shape = new ai.djl.ndarray.types.Shape(2, 3, h, w);
        try (ModelRuntime m = layer(new int[] {-1, 3, h, w}, UpsampleOp.nearest(s))) {
          assertArrayEquals(
              nearest(x, 6, h, w, s), m.forward(nd.create(x, shape))[0].toFloatArray(), 0f);
        }
        try (ModelRuntime m = layer(new int[] {-1, 3, h, w}, UpsampleOp.bilinear(s))) {
          assertArrayEquals(
              bilinear(x, 6, h, w, s),
              m.forward(nd.create(x, shape))[0].toFloatArray(),
              1e-5f,
              "bilinear x" + s + " of " + h + "x" + w);
        }
      }
    }
  }

  /** Gradients of both modes against finite differences. */
  static void gradients(NDManager nd) {
    for (UpsampleOp op : List.of(UpsampleOp.nearest(2), UpsampleOp.bilinear(2))) {
      try (ModelRuntime m = layer(new int[] {-1, 2, 3, 2}, op)) {
        int n = new GradientCheck(m, nd, new long[][] {{2, 2, 3, 2}}, 3).run();
        assertEquals(24, n, op.toString());
      }
    }
  }

  /** Every check, by name. */
  private static final Map<String, Consumer<NDManager>> CHECKS =
      Map.of("definition", UpsampleTest::definition, "gradients", UpsampleTest::gradients);

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
  void upsamplingIsTheDefinitionOfEachMode() {
    check("definition");
  }

  @Test
  void upsamplingGradientsAreFiniteDifferences() {
    check("gradients");
  }

  @Test
  void withoutOneDnnTheSameChecksPass() throws IOException, InterruptedException {
    OneDnnOff.assertAllPass(UpsampleTest.class, CHECKS);
  }

  @Test
  void aScaleOfZeroIsRefusedInTheCompileTimeWording() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> layer(new int[] {-1, 1, 2, 2}, UpsampleOp.nearest(0)));
    assertTrue(
        e.getMessage().startsWith("[kiln:NonPositive] Up.up() @Upsample: scale must be positive"),
        e::getMessage);
  }
}
