package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.BroadcastOp;
import dev.kiln.ops.ClipOp;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.MatMulOp;
import dev.kiln.ops.ReduceOp;
import dev.kiln.ops.SliceOp;
import dev.kiln.ops.TransposeOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The element-wise and tensor operations on MXNet against plain-Java loops written from their
 * definitions, and their gradients against finite differences ({@link GradientCheck}).
 */
class TensorOpsTest {
  /** A model of one node over inputs of the given shapes. */
  private static ModelRuntime layer(LayerOp spec, int[]... inputs) {
    GraphBuilder b = new GraphBuilder("Ops");
    Sym[] xs = new Sym[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      xs[i] = b.input(new NodeSource("x" + i, "Ops.x" + i + "()", "@Input"), Shape.of(inputs[i]));
    }
    Sym y = b.node(new NodeSource("op", "Ops.op()", "@Op"), spec, xs);
    return new ModelRuntime("OpsModel", b.build(List.of(y)), Init.xavier(), 3);
  }

  private static float[] random(Random rng, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return v;
  }

  /** {@code n} distinct values 0.1 apart, in random order, so no two are within a step of each. */
  private static float[] spread(Random rng, int n) {
    List<Float> v = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      v.add((i - n / 2f) * 0.1f);
    }
    Collections.shuffle(v, rng);
    float[] out = new float[n];
    for (int i = 0; i < n; i++) {
      out[i] = v.get(i);
    }
    return out;
  }

  private static int size(int[] shape) {
    return Arrays.stream(shape).reduce(1, (x, y) -> x * y);
  }

  private static long[] dims(int[] shape) {
    return Arrays.stream(shape).asLongStream().toArray();
  }

  private static float[] forward(ModelRuntime m, NDManager nd, int[][] shapes, float[]... xs) {
    NDArray[] in = new NDArray[xs.length];
    for (int i = 0; i < xs.length; i++) {
      in[i] = nd.create(xs[i], new ai.djl.ndarray.types.Shape(dims(shapes[i])));
    }
    return m.forward(in)[0].toFloatArray();
  }

  /** Row-major index of {@code coord} in {@code shape}, each size-1 axis read at 0 (broadcast). */
  private static int broadcastIndex(int[] coord, int[] shape) {
    int index = 0;
    for (int d = 0; d < shape.length; d++) {
      index = index * shape[d] + (shape[d] == 1 ? 0 : coord[d]);
    }
    return index;
  }

  /** {@code f(a, b)} with NumPy's broadcasting over equal ranks, from the definition. */
  private static float[] broadcastReference(
      float[] a, int[] sa, float[] b, int[] sb, DoubleBinaryOperator f) {
    int[] out = new int[sa.length];
    for (int d = 0; d < out.length; d++) {
      out[d] = Math.max(sa[d], sb[d]);
    }
    float[] r = new float[size(out)];
    int[] coord = new int[out.length];
    for (int i = 0; i < r.length; i++) {
      int rest = i;
      for (int d = out.length - 1; d >= 0; d--) {
        coord[d] = rest % out[d];
        rest /= out[d];
      }
      r[i] = (float) f.applyAsDouble(a[broadcastIndex(coord, sa)], b[broadcastIndex(coord, sb)]);
    }
    return r;
  }

  @Test
  void broadcastingOperationsAreTheirDefinitions() {
    Random rng = new Random(1);
    int[][] shapes = {{2, 3, 1, 4}, {1, 3, 5, 1}};
    float[] a = random(rng, size(shapes[0]));
    float[] b = new float[size(shapes[1])];
    for (int i = 0; i < b.length; i++) {
      // Divisors away from zero.
      b[i] = (float) ((rng.nextBoolean() ? 1 : -1) * (0.5 + Math.abs(rng.nextGaussian())));
    }
    List<BroadcastOp> specs =
        List.of(
            BroadcastOp.multiply(),
            BroadcastOp.subtract(),
            BroadcastOp.divide(),
            BroadcastOp.maximum());
    List<DoubleBinaryOperator> definitions =
        List.of((x, y) -> x * y, (x, y) -> x - y, (x, y) -> x / y, Math::max);
    try (NDManager nd = NDManager.newBaseManager()) {
      for (int k = 0; k < specs.size(); k++) {
        try (ModelRuntime m = layer(specs.get(k), new int[] {-1, 3, 1, 4}, shapes[1])) {
          float[] expected = broadcastReference(a, shapes[0], b, shapes[1], definitions.get(k));
          assertEquals(2 * 3 * 5 * 4, expected.length);
          assertArrayEquals(expected, forward(m, nd, shapes, a, b), 1e-5f, specs.get(k).mxnetOp());
        }
      }
    }
  }

  @Test
  void broadcastingGradientsSumOverTheBroadcastAxes() {
    Random rng = new Random(2);
    int[][] shapes = {{2, 1, 3}, {1, 4, 3}};
    try (NDManager nd = NDManager.newBaseManager()) {
      for (BroadcastOp spec :
          List.of(BroadcastOp.multiply(), BroadcastOp.subtract(), BroadcastOp.divide())) {
        try (ModelRuntime m = layer(spec, new int[] {-1, 1, 3}, shapes[1])) {
          float[] divisor = new float[12];
          for (int i = 0; i < divisor.length; i++) {
            divisor[i] = (float) (1 + rng.nextDouble());
          }
          int n =
              new GradientCheck(m, nd, new long[][] {{2, 1, 3}, {1, 4, 3}}, 21)
                  .withInput(1, divisor)
                  .run();
          assertEquals(6 + 12, n, spec.mxnetOp());
        }
      }
      // The maximum's gradient goes to the larger value: inputs 0.1 apart, so that no finite
      // difference changes which one is larger.
      float[] both = spread(rng, 18);
      try (ModelRuntime m = layer(BroadcastOp.maximum(), new int[] {-1, 1, 3}, shapes[1])) {
        int n =
            new GradientCheck(m, nd, new long[][] {{2, 1, 3}, {1, 4, 3}}, 22)
                .withInput(0, Arrays.copyOfRange(both, 0, 6))
                .withInput(1, Arrays.copyOfRange(both, 6, 18))
                .run();
        assertEquals(18, n);
      }
    }
  }

  @Test
  void theMaximumsGradientGoesToTheFirstInputOnATie() {
    try (ModelRuntime m = layer(BroadcastOp.maximum(), new int[] {-1, 2}, new int[] {-1, 2});
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      ai.djl.ndarray.types.Shape s = new ai.djl.ndarray.types.Shape(1, 2);
      m.forward(nd.create(new float[] {1, 2}, s), nd.create(new float[] {1, 3}, s));
      NDArray[] g = m.backward(nd.create(new float[] {10, 20}, s));
      assertArrayEquals(new float[] {10, 0}, g[0].toFloatArray());
      assertArrayEquals(new float[] {0, 20}, g[1].toFloatArray());
    }
  }

  @Test
  void clipLimitsEveryValueAndPassesGradientsOnlyInside() {
    Random rng = new Random(3);
    float[] x = random(rng, 24);
    int[][] shape = {{2, 3, 4}};
    try (NDManager nd = NDManager.newBaseManager()) {
      try (ModelRuntime m = layer(ClipOp.between(-0.5, 0.75), new int[] {-1, 3, 4})) {
        float[] expected = new float[x.length];
        for (int i = 0; i < x.length; i++) {
          expected[i] = Math.min(0.75f, Math.max(-0.5f, x[i]));
        }
        assertArrayEquals(expected, forward(m, nd, shape, x), 0f);
        // Inputs away from the bounds, so that no finite difference crosses one; the gradient
        // is zero outside [min, max] and passes inside.
        float[] away = new float[x.length];
        for (int i = 0; i < away.length; i++) {
          away[i] = (float) (Math.round(x[i] * 4) / 4.0 + 0.1);
        }
        int n = new GradientCheck(m, nd, new long[][] {{2, 3, 4}}, 31).withInput(0, away).run();
        assertEquals(24, n);
      }
      // An infinite bound leaves that side open (MXNet reads "Infinity"); MXNet holds the bounds
      // as float32.
      try (ModelRuntime m =
          layer(ClipOp.between(0.1, Double.POSITIVE_INFINITY), new int[] {-1, 3})) {
        float[] out = forward(m, nd, new int[][] {{1, 3}}, new float[] {-5, 0.05f, 1e30f});
        assertArrayEquals(new float[] {0.1f, 0.1f, 1e30f}, out, 0f);
      }
    }
  }

  @Test
  void clipsGradientIsZeroOutsideTheRange() {
    try (ModelRuntime m = layer(ClipOp.between(-1, 1), new int[] {-1, 4});
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      ai.djl.ndarray.types.Shape s = new ai.djl.ndarray.types.Shape(1, 4);
      m.forward(nd.create(new float[] {-3, -1, 0.5f, 2}, s));
      NDArray[] g = m.backward(nd.create(new float[] {1, 2, 3, 4}, s));
      // At a bound the value is inside: MXNet passes the gradient there.
      assertArrayEquals(new float[] {0, 2, 3, 0}, g[0].toFloatArray());
    }
  }

  /**
   * The matrix products of two stacks of the given shapes, from the definition: for each leading
   * index, out[i][j] = sum over t of A[i][t] * B[t][j], with A and B read transposed when asked.
   */
  private static float[] matMulReference(
      float[] a, int[] sa, float[] b, int[] sb, boolean ta, boolean tb) {
    int n = sa.length;
    int rows = ta ? sa[n - 1] : sa[n - 2];
    int inner = ta ? sa[n - 2] : sa[n - 1];
    int cols = tb ? sb[n - 2] : sb[n - 1];
    int stacks = size(Arrays.copyOf(sa, n - 2));
    float[] out = new float[stacks * rows * cols];
    int sizeA = sa[n - 2] * sa[n - 1];
    int sizeB = sb[n - 2] * sb[n - 1];
    for (int s = 0; s < stacks; s++) {
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          double sum = 0;
          for (int t = 0; t < inner; t++) {
            float x = ta ? a[s * sizeA + t * sa[n - 1] + i] : a[s * sizeA + i * sa[n - 1] + t];
            float y = tb ? b[s * sizeB + j * sb[n - 1] + t] : b[s * sizeB + t * sb[n - 1] + j];
            sum += x * y;
          }
          out[(s * rows + i) * cols + j] = (float) sum;
        }
      }
    }
    return out;
  }

  /** {@code shape} with its first dimension {@code BATCH}. */
  private static int[] batched(int[] shape) {
    int[] s = shape.clone();
    s[0] = -1;
    return s;
  }

  @Test
  void matrixProductsAreTheirDefinitionWithEveryTranspose() {
    Random rng = new Random(4);
    try (NDManager nd = NDManager.newBaseManager()) {
      // Rank 2 (dot): [2, 3] by [3, 4]; rank 3 and 4 (batch_dot): stacks of [3, 5] by [5, 2].
      int[][][] cases = {
        {{2, 3}, {3, 4}}, {{2, 3, 5}, {2, 5, 2}}, {{2, 2, 3, 5}, {2, 2, 5, 2}},
      };
      for (int[][] c : cases) {
        for (int t = 0; t < 4; t++) {
          boolean ta = (t & 1) != 0;
          boolean tb = (t & 2) != 0;
          int n = c[0].length;
          int[] sa = c[0].clone();
          int[] sb = c[1].clone();
          if (ta) {
            sa[n - 2] = c[0][n - 1];
            sa[n - 1] = c[0][n - 2];
          }
          if (tb) {
            sb[n - 2] = c[1][n - 1];
            sb[n - 1] = c[1][n - 2];
          }
          MatMulOp spec = n == 2 ? MatMulOp.matrices() : MatMulOp.batched();
          spec = ta ? spec.transposeA() : spec;
          spec = tb ? spec.transposeB() : spec;
          // Rank 2 is declared without a batch, which a transposed left factor would sum over.
          int[] declaredA = n == 2 ? sa : batched(sa);
          int[] declaredB = n == 2 ? sb : batched(sb);
          try (ModelRuntime m = layer(spec, declaredA, declaredB)) {
            float[] a = random(rng, size(sa));
            float[] b = random(rng, size(sb));
            float[] expected = matMulReference(a, sa, b, sb, ta, tb);
            String what = spec + " of " + Arrays.toString(sa) + " by " + Arrays.toString(sb);
            assertArrayEquals(expected, forward(m, nd, new int[][] {sa, sb}, a, b), 1e-5f, what);
          }
        }
      }
    }
  }

  @Test
  void matrixProductGradientsAreFiniteDifferences() {
    try (NDManager nd = NDManager.newBaseManager()) {
      try (ModelRuntime m =
          layer(MatMulOp.matrices().transposeA(), new int[] {3, -1}, new int[] {3, 2})) {
        assertEquals(6 + 6, new GradientCheck(m, nd, new long[][] {{3, 2}, {3, 2}}, 41).run());
      }
      try (ModelRuntime m =
          layer(MatMulOp.batched().transposeB(), new int[] {-1, 3, 4}, new int[] {-1, 2, 4})) {
        assertEquals(
            24 + 16, new GradientCheck(m, nd, new long[][] {{2, 3, 4}, {2, 2, 4}}, 42).run());
      }
      try (ModelRuntime m =
          layer(
              MatMulOp.batched().transposeA().transposeB(),
              new int[] {-1, 2, 3, 2},
              new int[] {-1, 2, 2, 3})) {
        assertEquals(
            12 + 12, new GradientCheck(m, nd, new long[][] {{1, 2, 3, 2}, {1, 2, 2, 3}}, 43).run());
      }
    }
  }

  /**
   * A stack product between convolutions of 16 filters, whose outputs and input gradients oneDNN
   * keeps in a blocked layout: MXNet 1.9.1's {@code batch_dot} fails on such arrays ("We can't
   * generate TBlob for MKLDNN data", forward on the first convolution's output, backward on the
   * second one's input gradient) unless it reads and writes through the spec's default-layout
   * identities; the gradients must still be the finite differences.
   */
  @Test
  void aMatrixProductBetweenConvolutionsOfSixteenFilters() {
    GraphBuilder b = new GraphBuilder("Ops");
    Sym x = b.input(new NodeSource("x", "Ops.x()", "@Input"), Shape.of(-1, 2, 3, 3));
    Sym c = b.node(new NodeSource("c", "Ops.c()", "@Conv2D"), ConvOp.filters(16).kernel(1, 1), x);
    Sym p =
        b.node(new NodeSource("p", "Ops.p()", "@MatMul"), MatMulOp.batched().transposeB(), c, c);
    Sym d = b.node(new NodeSource("d", "Ops.d()", "@Conv2D"), ConvOp.filters(16).kernel(1, 1), p);
    try (ModelRuntime m = new ModelRuntime("OpsModel", b.build(List.of(d)), Init.xavier(), 5);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m, nd, new long[][] {{1, 2, 3, 3}}, 44).run();
      assertEquals(16 * 2 + 16 + 16 * 16 + 16 + 18, n);
    }
  }

  /** Output axis i is input axis {@code axes[i]}: out[c] = in[c read through the permutation]. */
  private static float[] transposeReference(float[] x, int[] shape, int[] axes) {
    int n = shape.length;
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = shape[axes[i]];
    }
    float[] r = new float[x.length];
    int[] coord = new int[n];
    int[] in = new int[n];
    for (int i = 0; i < r.length; i++) {
      int rest = i;
      for (int d = n - 1; d >= 0; d--) {
        coord[d] = rest % out[d];
        rest /= out[d];
      }
      for (int d = 0; d < n; d++) {
        in[axes[d]] = coord[d];
      }
      int index = 0;
      for (int d = 0; d < n; d++) {
        index = index * shape[d] + in[d];
      }
      r[i] = x[index];
    }
    return r;
  }

  @Test
  void transposeIsThePermutationAndMovesTheBatch() {
    Random rng = new Random(5);
    int[] shape = {2, 3, 4, 5};
    float[] x = random(rng, size(shape));
    try (NDManager nd = NDManager.newBaseManager()) {
      for (int[] axes : new int[][] {{0, 2, 1, 3}, {0, 3, 1, 2}, {3, 0, 2, 1}, {1, 2, 3, 0}}) {
        try (ModelRuntime m = layer(TransposeOp.axes(axes), batched(shape))) {
          assertArrayEquals(
              transposeReference(x, shape, axes),
              forward(m, nd, new int[][] {shape}, x),
              0f,
              Arrays.toString(axes));
        }
      }
      try (ModelRuntime m = layer(TransposeOp.reverse(), batched(shape))) {
        assertArrayEquals(
            transposeReference(x, shape, new int[] {3, 2, 1, 0}),
            forward(m, nd, new int[][] {shape}, x),
            0f);
      }
      try (ModelRuntime m = layer(TransposeOp.axes(0, 2, 1), new int[] {-1, 3, 4})) {
        assertEquals(24, new GradientCheck(m, nd, new long[][] {{2, 3, 4}}, 51).run());
      }
      try (ModelRuntime m = layer(TransposeOp.axes(2, 0, 1), new int[] {-1, 3, 4})) {
        assertEquals(24, new GradientCheck(m, nd, new long[][] {{2, 3, 4}}, 52).run());
      }
    }
  }

  /** Indices {@code [begin, end)} of {@code axis}, non-negative, from the definition. */
  private static float[] sliceReference(float[] x, int[] shape, int axis, int begin, int end) {
    int outer = size(Arrays.copyOf(shape, axis));
    int inner = size(Arrays.copyOfRange(shape, axis + 1, shape.length));
    float[] out = new float[outer * (end - begin) * inner];
    int k = 0;
    for (int o = 0; o < outer; o++) {
      for (int i = begin; i < end; i++) {
        for (int j = 0; j < inner; j++) {
          out[k++] = x[(o * shape[axis] + i) * inner + j];
        }
      }
    }
    return out;
  }

  @Test
  void sliceTakesTheRangeAndCountsNegativeIndicesFromTheEnd() {
    Random rng = new Random(6);
    int[] shape = {2, 5, 6};
    float[] x = random(rng, size(shape));
    try (NDManager nd = NDManager.newBaseManager()) {
      try (ModelRuntime m = layer(SliceOp.axis(2).begin(1).end(-2), batched(shape))) {
        assertArrayEquals(
            sliceReference(x, shape, 2, 1, 4), forward(m, nd, new int[][] {shape}, x), 0f);
      }
      try (ModelRuntime m = layer(SliceOp.axis(-2).begin(-3), batched(shape))) {
        assertArrayEquals(
            sliceReference(x, shape, 1, 2, 5), forward(m, nd, new int[][] {shape}, x), 0f);
      }
      try (ModelRuntime m = layer(SliceOp.axis(1).begin(1).end(3), new int[] {-1, 5, 6})) {
        assertEquals(60, new GradientCheck(m, nd, new long[][] {{2, 5, 6}}, 61).run());
        // Outside the range the gradient is zero.
        m.setTraining(true);
        m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(2, 5, 6)));
        float[] g = m.backward(nd.ones(new ai.djl.ndarray.types.Shape(2, 2, 6)))[0].toFloatArray();
        for (int i = 0; i < g.length; i++) {
          int row = i / 6 % 5;
          assertEquals(row >= 1 && row < 3 ? 1f : 0f, g[i], "gradient " + i);
        }
      }
    }
  }

  /** Sums (or means) over {@code axes} of {@code x}, from the definition, in row-major order. */
  private static float[] reduceReference(float[] x, int[] shape, List<Integer> axes, boolean mean) {
    int n = shape.length;
    int[] out = shape.clone();
    int count = 1;
    for (int a : axes) {
      out[a] = 1;
      count *= shape[a];
    }
    double[] sums = new double[size(out)];
    int[] coord = new int[n];
    for (int i = 0; i < x.length; i++) {
      int rest = i;
      for (int d = n - 1; d >= 0; d--) {
        coord[d] = rest % shape[d];
        rest /= shape[d];
      }
      int index = 0;
      for (int d = 0; d < n; d++) {
        index = index * out[d] + (axes.contains(d) ? 0 : coord[d]);
      }
      sums[index] += x[i];
    }
    float[] r = new float[sums.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = (float) (mean ? sums[i] / count : sums[i]);
    }
    return r;
  }

  @Test
  void meanAndSumReduceTheAxesGiven() {
    Random rng = new Random(7);
    int[] shape = {2, 3, 4, 5};
    float[] x = random(rng, size(shape));
    try (NDManager nd = NDManager.newBaseManager()) {
      for (List<Integer> axes :
          List.of(List.of(1), List.of(2, 3), List.of(1, 3), List.of(1, 2, 3))) {
        int[] a = axes.stream().mapToInt(Integer::intValue).toArray();
        for (boolean keep : new boolean[] {false, true}) {
          for (boolean mean : new boolean[] {false, true}) {
            ReduceOp spec = mean ? ReduceOp.mean(a) : ReduceOp.sum(a);
            try (ModelRuntime m = layer(keep ? spec.keepDims() : spec, batched(shape))) {
              NDArray out = m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(dims(shape))))[0];
              assertArrayEquals(
                  reduceReference(x, shape, axes, mean),
                  out.toFloatArray(),
                  1e-5f,
                  spec.toString());
              long[] expected = new long[shape.length - (keep ? 0 : axes.size())];
              for (int d = 0, j = 0; d < shape.length; d++) {
                if (keep || !axes.contains(d)) {
                  expected[j++] = axes.contains(d) ? 1 : shape[d];
                }
              }
              assertArrayEquals(expected, out.getShape().getShape(), spec.toString());
            }
          }
        }
      }
      try (ModelRuntime m = layer(ReduceOp.mean(1, 2), new int[] {-1, 3, 4})) {
        assertEquals(24, new GradientCheck(m, nd, new long[][] {{2, 3, 4}}, 71).run());
      }
      try (ModelRuntime m = layer(ReduceOp.sum(2).keepDims(), new int[] {-1, 3, 4})) {
        assertEquals(24, new GradientCheck(m, nd, new long[][] {{2, 3, 4}}, 72).run());
      }
    }
  }
}
