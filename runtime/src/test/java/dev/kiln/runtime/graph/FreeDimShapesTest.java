package dev.kiln.runtime.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConcatOp;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DeconvOp;
import dev.kiln.ops.FlattenOp;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.PadOp;
import dev.kiln.ops.PoolOp;
import dev.kiln.ops.UpsampleOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.mxnet.MxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The operator units' symbolic shape functions against MXNet's own shape inference: for random
 * attributes, each unit's rule runs over an input whose spatial sizes are free dimensions ({@code
 * H}, {@code W}; {@code G} for a second input), giving output sizes as expressions and the
 * requirements the unit records; then, at many concrete sizes, MXNet infers the shape of the same
 * operator (the unit's own graph, built by {@link GraphBuilder}). Where every requirement holds,
 * MXNet accepts the sizes and its output shape is the expressions' values. Where a requirement
 * fails, MXNet refuses the sizes or infers an empty output: the requirement is exact, not merely
 * sufficient. One exception, by design: under the full pooling convention Kiln also needs the last
 * window to start inside the input, which MXNet does not check ({@code PoolOp}'s rule); there only
 * sufficiency is asserted.
 */
class FreeDimShapesTest {
  private static final SizeExpr BATCH = SizeExpr.dim("BATCH");
  private static final SizeExpr H = SizeExpr.dim("H");
  private static final SizeExpr W = SizeExpr.dim("W");
  private static final SizeExpr G = SizeExpr.dim("G");

  /** Sizes drawn per case: small, where windows stop fitting, and a few larger. */
  private static final int SIZES = 24;

  /** The size every free dimension takes while the graph is built (every rule holds there). */
  private static final long PROBE = 64;

  /** Whether a failed requirement must make MXNet refuse (or empty) the sizes. */
  private static final Predicate<Requirement> EXACT = r -> !r.why().contains("last window");

  /**
   * Runs {@code op}'s rule over inputs of {@code inputs} (expressions in {@code BATCH}, {@code H},
   * {@code W}, {@code G}) and compares it with MXNet's shape inference at {@link #SIZES} random
   * sizes from {@code seed}, each dimension from 1 to {@code max}.
   */
  static void compare(LayerOp op, List<List<SizeExpr>> inputs, long seed, int max) {
    List<Source> in = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      in.add(
          new Source(
              new TShape(inputs.get(i).stream().map(TShape::size).toList()), "x" + i, "@Input"));
    }
    List<Requirement> needs = new ArrayList<>();
    ShapeSite site =
        new ShapeSite("Net.y()", "y", "@" + op.getClass().getSimpleName(), in)
            .withNeeds(needs::add);
    Inferred inferred;
    try {
      inferred = op.infer(site);
    } catch (RuleError e) {
      // Attributes the unit refuses whatever the sizes (e.g. a pooling pad as wide as the window).
      Assume.that(false);
      return;
    }
    List<SizeExpr> out = inferred.shape().dims().stream().map(TShape::expression).toList();
    String what = op + " over " + inputs + " -> " + out + " needing " + needs;
    try (GraphBuilder b = new GraphBuilder("Shapes")) {
      List<Sym> xs = new ArrayList<>();
      for (int i = 0; i < inputs.size(); i++) {
        int[] probe =
            concrete(inputs.get(i), Map.of("BATCH", -1L, "H", PROBE, "W", PROBE, "G", PROBE));
        xs.add(b.input(new NodeSource("x" + i, "Net.x" + i + "()", "@Input"), Shape.of(probe)));
      }
      Sym y = b.node(new NodeSource("y", "Net.y()", "@Op"), op, xs.toArray(Sym[]::new));
      try (Graph g = b.build(List.of(y))) {
        Random random = new Random(seed);
        for (int t = 0; t < SIZES; t++) {
          Map<String, Long> sizes = new HashMap<>();
          sizes.put("BATCH", 2L);
          for (String d : List.of("H", "W", "G")) {
            sizes.put(d, 1L + random.nextInt(t < SIZES / 2 ? Math.min(max, 12) : max));
          }
          check(g, inputs, out, needs, sizes, what);
        }
      }
    }
  }

  private static void check(
      Graph g,
      List<List<SizeExpr>> inputs,
      List<SizeExpr> out,
      List<Requirement> needs,
      Map<String, Long> sizes,
      String what) {
    Map<String, int[]> known = new HashMap<>();
    for (int i = 0; i < inputs.size(); i++) {
      known.put("x" + i, concrete(inputs.get(i), sizes));
    }
    int[] mxnet;
    try {
      mxnet = g.symbol().inferShapes(known).outputs()[0];
    } catch (MxException e) {
      mxnet = null;
    }
    boolean empty = mxnet == null || java.util.Arrays.stream(mxnet).anyMatch(d -> d <= 0);
    List<Requirement> failed = needs.stream().filter(r -> !r.holds(sizes)).toList();
    String at =
        what
            + " at "
            + sizes
            + ": MXNet gives "
            + (mxnet == null ? "an error" : java.util.Arrays.toString(mxnet));
    if (failed.isEmpty()) {
      Statistics.label("sizes").collect("every requirement holds");
      if (mxnet == null) {
        fail(at + ", though every requirement holds");
      }
      assertArrayEquals(concrete(out, sizes), mxnet, at);
    } else if (failed.stream().anyMatch(EXACT)) {
      Statistics.label("sizes").collect("a requirement fails");
      assertTrue(empty, () -> at + ", though " + failed + " fails");
    } else {
      Statistics.label("sizes").collect("only a stricter-than-MXNet requirement fails");
    }
  }

  /** Both outcomes were met: sizes where every requirement holds and sizes where one fails. */
  private static void coversBothOutcomes() {
    Statistics.label("sizes")
        .coverage(
            c -> {
              c.check("every requirement holds").count((Integer n) -> n > 0);
              c.check("a requirement fails").count((Integer n) -> n > 0);
            });
  }

  private static int[] concrete(List<SizeExpr> dims, Map<String, Long> sizes) {
    return dims.stream().mapToInt(e -> Math.toIntExact(e.eval(sizes))).toArray();
  }

  private static List<SizeExpr> image(int channels) {
    return List.of(BATCH, SizeExpr.constant(channels), H, W);
  }

  @Property(tries = 40)
  void convolution2d(
      @ForAll @IntRange(min = 1, max = 3) int channels,
      @ForAll @IntRange(min = 1, max = 5) int kh,
      @ForAll @IntRange(min = 1, max = 5) int kw,
      @ForAll @IntRange(min = 1, max = 3) int sh,
      @ForAll @IntRange(min = 1, max = 3) int sw,
      @ForAll @IntRange(min = 0, max = 2) int ph,
      @ForAll @IntRange(min = 0, max = 2) int pw,
      @ForAll @IntRange(min = 1, max = 3) int dh,
      @ForAll @IntRange(min = 1, max = 3) int dw,
      @ForAll long seed) {
    ConvOp op = ConvOp.filters(2).kernel(kh, kw).stride(sh, sw).pad(ph, pw).dilation(dh, dw);
    compare(op, List.of(image(channels)), seed, 40);
    coversBothOutcomes();
  }

  @Property(tries = 30)
  void convolution1d(
      @ForAll @IntRange(min = 1, max = 7) int k,
      @ForAll @IntRange(min = 1, max = 4) int s,
      @ForAll @IntRange(min = 0, max = 3) int p,
      @ForAll @IntRange(min = 1, max = 3) int d,
      @ForAll long seed) {
    ConvOp op = ConvOp.filters(3).kernel(k).stride(s).pad(p).dilation(d);
    compare(op, List.of(List.of(BATCH, SizeExpr.constant(2), W)), seed, 40);
    coversBothOutcomes();
  }

  @Property(tries = 60)
  void pooling(
      @ForAll boolean max,
      @ForAll boolean full,
      @ForAll boolean oneD,
      @ForAll @IntRange(min = 1, max = 5) int kh,
      @ForAll @IntRange(min = 1, max = 5) int kw,
      @ForAll @IntRange(min = 1, max = 4) int sh,
      @ForAll @IntRange(min = 1, max = 4) int sw,
      @ForAll @IntRange(min = 0, max = 2) int ph,
      @ForAll @IntRange(min = 0, max = 2) int pw,
      @ForAll long seed) {
    PoolOp base =
        oneD
            ? (max ? PoolOp.max(kw) : PoolOp.avg(kw))
            : max ? PoolOp.max(kh, kw) : PoolOp.avg(kh, kw);
    PoolOp op =
        (oneD ? base.stride(sw).pad(pw) : base.stride(sh, sw).pad(ph, pw))
            .convention(full ? PoolConvention.FULL : PoolConvention.VALID);
    List<SizeExpr> x = oneD ? List.of(BATCH, SizeExpr.constant(2), W) : image(2);
    compare(op, List.of(x), seed, 30);
    coversBothOutcomes();
  }

  @Property(tries = 40)
  void deconvolution(
      @ForAll @IntRange(min = 1, max = 5) int k,
      @ForAll @IntRange(min = 1, max = 3) int s,
      @ForAll @IntRange(min = 0, max = 3) int p,
      @ForAll @IntRange(min = 0, max = 2) int adj,
      @ForAll @IntRange(min = 1, max = 2) int d,
      @ForAll long seed) {
    Assume.that(adj < s);
    DeconvOp op =
        DeconvOp.filters(2).kernel(k, k).stride(s, s).pad(p, p).outputPad(adj, adj).dilation(d, d);
    compare(op, List.of(image(2)), seed, 20);
    coversBothOutcomes();
  }

  @Property(tries = 10)
  void upsampling(
      @ForAll @IntRange(min = 1, max = 4) int scale, @ForAll boolean nearest, @ForAll long seed) {
    UpsampleOp op = nearest ? UpsampleOp.nearest(scale) : UpsampleOp.bilinear(scale);
    compare(op, List.of(image(2)), seed, 20);
  }

  @Property(tries = 30)
  void padding(
      @ForAll @IntRange(min = 0, max = 2) int mode,
      @ForAll @IntRange(min = 0, max = 3) int top,
      @ForAll @IntRange(min = 0, max = 3) int bottom,
      @ForAll @IntRange(min = 0, max = 3) int left,
      @ForAll @IntRange(min = 0, max = 3) int right,
      @ForAll long seed) {
    int[] w = {0, 0, 0, 0, top, bottom, left, right};
    PadOp op = mode == 0 ? PadOp.constant(0.5, w) : mode == 1 ? PadOp.edge(w) : PadOp.reflect(w);
    compare(op, List.of(image(2)), seed, 8);
    coversBothOutcomes();
  }

  @Property(tries = 10)
  void concatenation(@ForAll @IntRange(min = 1, max = 3) int axis, @ForAll long seed) {
    List<SizeExpr> a = image(2);
    List<SizeExpr> b = new ArrayList<>(image(2));
    if (axis == 1) {
      b.set(1, SizeExpr.constant(3));
    } else {
      b.set(axis, G);
    }
    compare(ConcatOp.axis(axis), List.of(a, b), seed, 20);
  }

  @Property(tries = 5)
  void flattening(@ForAll @IntRange(min = 1, max = 4) int channels, @ForAll long seed) {
    compare(FlattenOp.of(), List.of(image(channels)), seed, 20);
  }
}
