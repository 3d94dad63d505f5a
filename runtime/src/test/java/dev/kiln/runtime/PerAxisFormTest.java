package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A custom layer's {@code mul}, {@code add} and {@code sub} of a per-axis operand (a channel scale,
 * a feature gain, a bias) in their fast form, a depthwise 1x1 convolution: the output and both
 * operands' gradients against a plain-Java broadcast, on shapes and axes the form was not measured
 * on, with either operand first; the cases the form must leave to MXNet's {@code broadcast_*} (both
 * operands broadcast, a subtraction from the small operand, a division) keep it; with oneDNN on
 * and, in a child JVM, off.
 */
class PerAxisFormTest {
  /** One operation: {@code x <op> p} or, {@code paramFirst}, {@code p <op> x}. */
  record Case(String op, int[] x, int[] p, boolean paramFirst, boolean fast) {
    @Override
    public String toString() {
      String xs = Arrays.toString(x);
      String ps = Arrays.toString(p);
      return paramFirst ? ps + " " + op + " " + xs : xs + " " + op + " " + ps;
    }
  }

  private static final List<Case> CASES =
      List.of(
          new Case("mul", new int[] {3, 4, 5, 6}, new int[] {4, 1, 1}, false, true),
          new Case("mul", new int[] {3, 4, 5, 6}, new int[] {4, 1, 1}, true, true),
          new Case("mul", new int[] {3, 4, 5, 6}, new int[] {5, 1}, false, true),
          new Case("mul", new int[] {3, 4, 5, 6}, new int[] {6}, false, true),
          new Case("mul", new int[] {2, 7}, new int[] {7}, true, true),
          new Case("mul", new int[] {2, 3, 4, 2, 3}, new int[] {1, 3, 1, 1, 1}, false, true),
          new Case("add", new int[] {3, 4, 5}, new int[] {4, 1}, false, true),
          new Case("add", new int[] {3, 4, 5, 6}, new int[] {4, 1, 1}, true, true),
          new Case("sub", new int[] {3, 4, 5, 6}, new int[] {4, 1, 1}, false, true),
          new Case("sub", new int[] {2, 9}, new int[] {9}, false, true),
          new Case("sub", new int[] {3, 4, 5, 6}, new int[] {4, 1, 1}, true, false),
          new Case("div", new int[] {3, 4, 5, 6}, new int[] {4, 1, 1}, false, false),
          new Case("mul", new int[] {3, 4, 5, 6}, new int[] {4, 5, 1}, false, false),
          new Case("mul", new int[] {3, 4, 1, 6}, new int[] {4, 5, 1}, false, false));

  /** The model {@code y = x <op> p}, with {@code p} a parameter of the custom layer. */
  private static ModelRuntime model(Case c) {
    int[] xs = c.x().clone();
    xs[0] = Shape.BATCH;
    int[] out = broadcastShape(xs, c.p());
    GraphBuilder b = new GraphBuilder("PerAxis");
    NodeSource src = new NodeSource("y", "PerAxis.y()", "@Op");
    Sym x = b.input(new NodeSource("x", "PerAxis.x()", "@Input"), Shape.of(xs));
    List<String> pattern = Arrays.stream(c.p()).mapToObj(Integer::toString).toList();
    Sym p = b.customParam(src, "p", Shape.of(c.p()), pattern, ParamInit.MODEL);
    Sym y =
        b.custom(
            src,
            "Op",
            Shape.of(xs),
            Shape.of(out),
            x,
            List.of(p),
            (in, ps) -> {
              Sym l = c.paramFirst() ? ps.get(0) : in;
              Sym r = c.paramFirst() ? in : ps.get(0);
              return switch (c.op()) {
                case "mul" -> l.mul(r);
                case "add" -> l.add(r);
                case "sub" -> l.sub(r);
                default -> l.div(r);
              };
            });
    return new ModelRuntime("PerAxisModel", b.build(List.of(y)), Init.xavier(), 11);
  }

  /** MXNet's broadcast shape of {@code a} and {@code b}, lined up at their last axes. */
  private static int[] broadcastShape(int[] a, int[] b) {
    int[] out = a.clone();
    for (int i = 1; i <= b.length; i++) {
      if (a[a.length - i] == 1) {
        out[a.length - i] = b[b.length - i];
      }
    }
    return out;
  }

  /**
   * The index into {@code p} (lined up at the last axes, broadcast where 1) of output {@code k}.
   */
  private static int paramIndex(int[] out, int[] p, int k) {
    int index = 0;
    int stride = 1;
    for (int i = out.length - 1, j = p.length - 1; i >= 0; i--, j--) {
      int coord = k % out[i];
      k /= out[i];
      if (j >= 0) {
        index += (p[j] == 1 ? 0 : coord) * stride;
        stride *= p[j];
      }
    }
    return index;
  }

  /** The index into {@code x} of output {@code k} ({@code x} broadcast where it has 1). */
  private static int inputIndex(int[] out, int[] x, int k) {
    return paramIndex(out, x, k);
  }

  private static float[] random(Random rng, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (rng.nextGaussian() + 0.5 * Math.signum(rng.nextGaussian()));
    }
    return v;
  }

  private static int size(int[] dims) {
    return Arrays.stream(dims).reduce(1, (a, b) -> a * b);
  }

  /** Output and both gradients against a plain-Java broadcast, for every case. */
  static void againstPlainJava(NDManager nd) {
    Random rng = new Random(5);
    for (Case c : CASES) {
      try (ModelRuntime m = model(c)) {
        assertEquals(
            c.fast(), m.symbolJson().contains("\"Convolution\""), c + ": which form was built");
        int[] out = broadcastShape(c.x(), c.p());
        float[] x = random(rng, size(c.x()));
        float[] p = m.param("y_p").get();
        float[] head = random(rng, size(out));
        float[] y = new float[size(out)];
        double[] dx = new double[x.length];
        double[] dp = new double[p.length];
        for (int k = 0; k < y.length; k++) {
          float a = x[inputIndex(out, c.x(), k)];
          float q = p[paramIndex(out, c.p(), k)];
          float l = c.paramFirst() ? q : a;
          float r = c.paramFirst() ? a : q;
          double dl;
          double dr;
          switch (c.op()) {
            case "mul" -> {
              y[k] = l * r;
              dl = r;
              dr = l;
            }
            case "add" -> {
              y[k] = l + r;
              dl = 1;
              dr = 1;
            }
            case "sub" -> {
              y[k] = l - r;
              dl = 1;
              dr = -1;
            }
            default -> {
              y[k] = l / r;
              dl = 1.0 / r;
              dr = -(double) l / ((double) r * r);
            }
          }
          double da = c.paramFirst() ? dr : dl;
          double dq = c.paramFirst() ? dl : dr;
          dx[inputIndex(out, c.x(), k)] += head[k] * da;
          dp[paramIndex(out, c.p(), k)] += head[k] * dq;
        }
        m.setTraining(true);
        NDArray[] outs = m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(toLong(c.x()))));
        assertArrayEquals(y, outs[0].toFloatArray(), c + ": forward");
        NDArray[] grads = m.backward(nd.create(head, outs[0].getShape()));
        assertClose(dx, grads[0].toFloatArray(), c + ": the input's gradient");
        assertClose(dp, m.param("y_p").grad(), c + ": the parameter's gradient");
      }
    }
  }

  private static long[] toLong(int[] dims) {
    return Arrays.stream(dims).asLongStream().toArray();
  }

  /** Equal to float32 rounding of a sum: 1e-5 of the largest magnitude, per element. */
  private static void assertClose(double[] expected, float[] actual, String what) {
    assertEquals(expected.length, actual.length, what);
    double scale = Arrays.stream(expected).map(Math::abs).max().orElse(1);
    for (int i = 0; i < expected.length; i++) {
      if (Math.abs(expected[i] - actual[i]) > 1e-5 * scale) {
        throw new AssertionError(
            what + " [" + i + "]: expected " + expected[i] + ", was " + actual[i]);
      }
    }
  }

  /** Every check, by name. */
  private static final Map<String, Consumer<NDManager>> CHECKS =
      Map.of("againstPlainJava", PerAxisFormTest::againstPlainJava);

  /** Runs every check (with {@code MXNET_MKLDNN_ENABLED=0}: on MXNet's own kernels). */
  public static void main(String[] args) {
    OneDnnOff.main(CHECKS);
  }

  @Test
  void outputsAndGradientsAreThePlainBroadcast() {
    try (NDManager nd = NDManager.newBaseManager()) {
      againstPlainJava(nd);
    }
  }

  @Test
  void withoutOneDnnTheSameChecksPass() throws IOException, InterruptedException {
    OneDnnOff.assertAllPass(PerAxisFormTest.class, CHECKS);
  }
}
