package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.LrnOp;
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
 * Local response normalisation on MXNet against a plain-Java loop written from MXNet's definition,
 * {@code x / (k + alpha / size · Σ x²)^beta} over the channels of the window that exist, and its
 * gradients against finite differences; with oneDNN on and, in a child JVM, off.
 */
class LrnTest {
  private static ModelRuntime layer(int[] in, LrnOp spec) {
    GraphBuilder b = new GraphBuilder("Lrn");
    Sym x = b.input(new NodeSource("x", "Lrn.x()", "@Input"), Shape.of(in));
    Sym y = b.node(new NodeSource("norm", "Lrn.norm()", "@Lrn"), spec, x);
    return new ModelRuntime("LrnModel", b.build(List.of(y)), Init.xavier(), 7);
  }

  private static float[] random(Random rng, int n, double scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (rng.nextGaussian() * scale);
    }
    return v;
  }

  /**
   * MXNet's {@code LRN} from its definition over {@code [n, c, positions]}: each value divided by
   * {@code (k + alpha / size · Σ x²)^beta}, the sum over channels {@code ch - size / 2} to {@code
   * ch + size / 2} that exist, always divided by {@code size}.
   */
  static float[] lrnReference(
      float[] x, int n, int c, int positions, int size, double alpha, double beta, double k) {
    float[] out = new float[x.length];
    for (int b = 0; b < n; b++) {
      for (int ch = 0; ch < c; ch++) {
        for (int p = 0; p < positions; p++) {
          double sum = 0;
          for (int j = Math.max(0, ch - size / 2); j <= Math.min(c - 1, ch + size / 2); j++) {
            double v = x[(b * c + j) * positions + p];
            sum += v * v;
          }
          int at = (b * c + ch) * positions + p;
          out[at] = (float) (x[at] / Math.pow(k + alpha / size * sum, beta));
        }
      }
    }
    return out;
  }

  /**
   * MXNet's defaults, a strong alpha (so that the sum matters), and a window as wide as the
   * channels: against the reference, whose alpha MXNet divides by the size (with alpha as written
   * the strong case would be off by a factor of the size inside the power).
   */
  static void definition(NDManager nd) {
    Random rng = new Random(1);
    for (LrnOp spec :
        List.of(
            LrnOp.size(5),
            LrnOp.size(3).alpha(0.5).beta(0.6).k(1),
            LrnOp.size(7).alpha(2).beta(1.5).k(0.5))) {
      try (ModelRuntime m = layer(new int[] {-1, 7, 3, 2}, spec)) {
        float[] x = random(rng, 2 * 7 * 6, 2);
        float[] expected =
            lrnReference(x, 2, 7, 6, spec.size(), spec.alpha(), spec.beta(), spec.k());
        float[] actual =
            m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(2, 7, 3, 2)))[0].toFloatArray();
        assertArrayEquals(expected, actual, 1e-5f, spec.toString());
      }
    }
  }

  /** Gradients against finite differences, a strong alpha and the edge channels included. */
  static void gradients(NDManager nd) {
    for (LrnOp spec : List.of(LrnOp.size(3).alpha(0.5).beta(0.75).k(1), LrnOp.size(5))) {
      try (ModelRuntime m = layer(new int[] {-1, 5, 2, 3}, spec)) {
        int n = new GradientCheck(m, nd, new long[][] {{2, 5, 2, 3}}, 3).run();
        assertEquals(60, n, spec.toString());
      }
    }
  }

  /** Every check, by name. */
  private static final Map<String, Consumer<NDManager>> CHECKS =
      Map.of("definition", LrnTest::definition, "gradients", LrnTest::gradients);

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
  void lrnIsTheDefinitionWithAlphaDividedByTheSize() {
    check("definition");
  }

  @Test
  void lrnGradientsAreFiniteDifferences() {
    check("gradients");
  }

  @Test
  void withoutOneDnnTheSameChecksPass() throws IOException, InterruptedException {
    OneDnnOff.assertAllPass(LrnTest.class, CHECKS);
  }

  @Test
  void anEvenSizeIsRefusedWhenTheGraphIsBuilt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> layer(new int[] {-1, 4, 2, 2}, LrnOp.size(4)));
    assertEquals(
        "[kiln:EvenLrnSize] Lrn.norm() @Lrn: size must be odd, got 4; MXNet's LRN centres its "
            + "window of channels on each channel (use 3 or 5)",
        e.getMessage());
  }
}
