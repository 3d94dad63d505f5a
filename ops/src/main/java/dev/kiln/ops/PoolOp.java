package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.constant;
import static dev.kiln.ops.Args.ints;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A window pooling layer ({@code @MaxPool}, {@code @AvgPool}) over {@code [N, C, W]} or {@code [N,
 * C, H, W]}: MXNet's {@code Pooling} (average pooling counts padding as zeros, MXNet's default).
 * Generated code writes {@code PoolOp.max(2, 2)}: the kernel's length is the number of spatial
 * dimensions, and stride and pad, when set, give one value per dimension ({@code (height, width)}
 * in 2-D). The stride defaults to the kernel (non-overlapping windows), the padding to 0 and the
 * convention to {@link PoolConvention#VALID}.
 *
 * <p><b>Average pooling under the full convention</b> runs in float64 between {@code Cast}s ({@code
 * <node>_data_float64}, {@code <node>_out_float32}), where MXNet uses its own kernel in both
 * passes. In float32 MXNet 1.9.1 runs the forward pass on its own kernel (oneDNN divides a last
 * window that reaches past the padded input by the whole kernel, MXNet's kernel by the part within,
 * so MXNet keeps such pools off oneDNN) but decides the backward pass on the output's size, not the
 * input's, and runs it on oneDNN whenever the output's size divides evenly: the gradients of such a
 * last window are then those of another average (measured against finite differences, {@code
 * PoolingTest}).
 *
 * <p>At compile time: {@code @MaxPool} or {@code @AvgPool}: MXNet's {@code Pooling} over {@code [N,
 * C, W]} (1-D) or {@code [N, C, H, W]} (2-D), as the input's rank says; an empty {@code stride}
 * means the kernel's. Window attributes hold one value (for every spatial dimension) or two ({@code
 * {height, width}}, which only a 2-D input takes).
 *
 * @param type max or average
 * @param kernel window size
 * @param stride window step, empty for the kernel's
 * @param pad padding on each side
 * @param convention how the windows along a dimension are counted
 */
public record PoolOp(
    Type type,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    PoolConvention convention)
    implements LayerOp {
  /** The most spatial dimensions: height and width. */
  private static final int SPATIAL = 2;

  /** The two kinds of window pooling. */
  public enum Type {
    /** {@code @MaxPool}: the largest value of each window. */
    MAX("max", "MaxPool"),
    /** {@code @AvgPool}: the mean of each window. */
    AVG("avg", "AvgPool");

    /** MXNet's {@code pool_type}, and the unit's factory. */
    final String mxnet;

    final String annotation;

    Type(String mxnet, String annotation) {
      this.mxnet = mxnet;
      this.annotation = annotation;
    }
  }

  static final OpReader<MaxPool> MAX_READER =
      OpReader.of(
          MaxPool.class,
          p ->
              new PoolOp(
                  Type.MAX, list(p.kernel()), list(p.stride()), list(p.pad()), p.convention()),
          "kernel",
          "stride",
          "pad",
          "convention");

  static final OpReader<AvgPool> AVG_READER =
      OpReader.of(
          AvgPool.class,
          p ->
              new PoolOp(
                  Type.AVG, list(p.kernel()), list(p.stride()), list(p.pad()), p.convention()),
          "kernel",
          "stride",
          "pad",
          "convention");

  /** Copies the window attributes. */
  public PoolOp {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
  }

  private static List<Integer> list(int[] values) {
    return Arrays.stream(values).boxed().toList();
  }

  @Override
  public String annotation() {
    return type.annotation;
  }

  @Override
  public String mxnetOp() {
    return "Pooling(" + type.mxnet + ")";
  }

  @Override
  public int arity() {
    return 1;
  }

  /** The stride per spatial dimension: the kernel's when none was given. */
  private int[] effectiveStride(int spatial) {
    return Window.expand(stride.isEmpty() ? kernel : stride, spatial);
  }

  /**
   * Whether a window attribute was written with three values, {@code {depth, height, width}}: a
   * volume {@code [N, C, D, H, W]}, which only imports pool (MXNet pools 3-D too).
   */
  private boolean triples() {
    return kernel.size() == 3 || stride.size() == 3 || pad.size() == 3;
  }

  /** Whether a window attribute was written with two values, {@code {height, width}}. */
  private boolean pairs() {
    return kernel.size() == 2 || stride.size() == 2 || pad.size() == 2;
  }

  /** The spatial dimensions of a pool that produced {@code out}: its rank less N and C. */
  private static int spatial(TShape out) {
    return out.rank() - 2;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    int dims = triples() ? 3 : SPATIAL;
    site.window("kernel", kernel, dims, true);
    if (!stride.isEmpty()) {
      site.window("stride", stride, dims, true);
    }
    site.window("pad", pad, dims, false);
    if (pairs() && !triples()) {
      int axis = padTooLarge(SPATIAL);
      if (axis >= 0) {
        throw site.fail(Message.PAD_TOO_LARGE, "pad", padArgs(site.prefix(), axis, SPATIAL));
      }
    }
  }

  /**
   * The first spatial dimension, of {@code spatial}, along which the padding is not smaller than
   * the kernel (a window at the border would cover only padding, which has no maximum), or -1.
   */
  private int padTooLarge(int spatial) {
    int[] k = Window.expand(kernel, spatial);
    int[] p = Window.expand(pad, spatial);
    for (int axis = 0; axis < spatial; axis++) {
      if (p[axis] >= k[axis]) {
        return axis;
      }
    }
    return -1;
  }

  /** The arguments of {@link Message#PAD_TOO_LARGE} along {@code axis}. */
  private Object[] padArgs(String prefix, int axis, int spatial) {
    return new Object[] {
      prefix,
      Window.expand(pad, spatial)[axis],
      Window.expand(kernel, spatial)[axis],
      Window.axisName(axis, spatial)
    };
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code PoolingShape} (channels first): a rank-3 input pools along its width, a rank-4 one
   * along its height and width; output {@code [N, C, out...]} with {@code out = 1 + (size + 2p - k)
   * / s} per spatial dimension, the division rounded down ({@code valid}) or up ({@code full}); the
   * kernel must fit the padded input, and under {@code full} the last window must start inside the
   * input (MXNet does not check this, and fills such a window with its lowest float or 0).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    String layer = "@" + annotation();
    if (triples()) {
      site.requireRank(layer, 5, "[N, C, D, H, W]");
    } else if (pairs() && s.rank() == 3) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          layer,
          "4",
          "[N, C, H, W]",
          site.x().describe(),
          "; its window has two values ({height, width}): give one value to pool a rank-3 [N, C,"
              + " W] input along its width");
    } else if (pairs()) {
      site.requireRank(layer, 2 + SPATIAL, "[N, C, H, W]");
    } else if (s.rank() != 3 && s.rank() != 4) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          layer,
          "3 or 4",
          "[N, C, W] or [N, C, H, W]",
          site.x().describe(),
          "");
    }
    int spatial = s.rank() - 2;
    int tooLarge = padTooLarge(spatial);
    if (tooLarge >= 0) {
      throw site.fail(Message.PAD_TOO_LARGE, "pad", padArgs(site.prefix(), tooLarge, spatial));
    }
    int[] k = Window.expand(kernel, spatial);
    int[] st = effectiveStride(spatial);
    int[] p = Window.expand(pad, spatial);
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    for (int axis = 0; axis < spatial; axis++) {
      int valid = Window.out(site, axis, spatial, k[axis], "kernel " + k[axis], st[axis], p[axis]);
      out.add(convention == PoolConvention.FULL ? full(site, axis, spatial, k, st, p) : valid);
    }
    return Inferred.of(new TShape(out));
  }

  /**
   * The output size along {@code axis} under the full convention, {@code 1 + ceil((size + 2p - k) /
   * s)}, once the kernel is known to fit; refused when its last window starts past the input.
   */
  private static int full(ShapeSite site, int axis, int spatial, int[] k, int[] s, int[] p) {
    int size = site.shape().dim(2 + axis);
    if (TShape.isFree(size)) {
      // out = 1 + ceil((size + 2p - k) / s). The last window starts at (out - 1) * s - p, which
      // is at most size + p - k + s - 1: always inside the input when s <= k - p, else a need.
      SizeExpr in = site.shape().size(2 + axis);
      SizeExpr steps = in.plus(2L * p[axis] - k[axis] + s[axis] - 1).div(s[axis]);
      if (s[axis] + p[axis] > k[axis]) {
        site.require(
            steps.times(s[axis]).plus(-p[axis]),
            Requirement.Relation.AT_MOST,
            in.plus(-1),
            "the last window along the "
                + Window.axisName(axis, spatial)
                + " must start inside the input, not in its padding");
      }
      return TShape.size(steps.plus(1));
    }
    if (size < 0) {
      return TShape.BATCH;
    }
    int out = 1 + (size + 2 * p[axis] - k[axis] + s[axis] - 1) / s[axis];
    int lastStart = (out - 1) * s[axis] - p[axis];
    if (lastStart >= size) {
      throw site.fail(
          Message.EMPTY_WINDOW,
          "convention",
          site.prefix(),
          Window.axisName(axis, spatial),
          out,
          lastStart,
          size,
          site.x().describe());
    }
    return out;
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    long f = out.perExample();
    for (int k : Window.expand(kernel, spatial(out))) {
      f *= k;
    }
    return f;
  }

  @Override
  public NodeCall call(CallSite site) {
    int spatial = spatial(site.shape());
    int[] k = Window.expand(kernel, spatial);
    int[] st = effectiveStride(spatial);
    int[] p = Window.expand(pad, spatial);
    Args.Chain spec =
        chain(PoolOp.class, type.mxnet, ints(k))
            .when(!Arrays.equals(st, k), "stride", ints(st))
            .when(!Window.all(p, 0), "pad", ints(p))
            .when(convention != PoolConvention.VALID, "convention", constant(convention));
    return NodeCall.Builder.of("node", spec.build(), x());
  }

  /** The annotations' stride when none is written: empty, the kernel's. */
  private static final List<Integer> STRIDE = Defaults.ints(MaxPool.class, "stride");

  /** The annotations' padding when none is written. */
  private static final List<Integer> PAD = Defaults.ints(MaxPool.class, "pad");

  /** The largest value of each window of {@code sizes}, moved by its own size. */
  public static PoolOp max(int... sizes) {
    return new PoolOp(Type.MAX, Window.of(sizes), STRIDE, PAD, PoolConvention.VALID);
  }

  /** The mean of each window of {@code sizes}, moved by its own size. */
  public static PoolOp avg(int... sizes) {
    return new PoolOp(Type.AVG, Window.of(sizes), STRIDE, PAD, PoolConvention.VALID);
  }

  /** Steps of {@code steps}, one per spatial dimension. */
  public PoolOp stride(int... steps) {
    return new PoolOp(type, kernel, Window.of(steps), pad, convention);
  }

  /** {@code sizes} padding on each side, one per spatial dimension. */
  public PoolOp pad(int... sizes) {
    return new PoolOp(type, kernel, stride, Window.of(sizes), convention);
  }

  /** Windows counted by {@code convention}. */
  public PoolOp convention(PoolConvention convention) {
    return new PoolOp(type, kernel, stride, pad, convention);
  }

  /**
   * MXNet's {@code Pooling} (average pooling counts padding as zeros, MXNet's default).
   *
   * <p><b>Average pooling under the full convention</b> runs in float64 between {@code Cast}s
   * ({@code <node>_data_float64}, {@code <node>_out_float32}), where MXNet uses its own kernel in
   * both passes. In float32 MXNet 1.9.1 runs the forward pass on its own kernel (oneDNN divides a
   * last window that reaches past the padded input by the whole kernel, MXNet's kernel by the part
   * within, so MXNet keeps such pools off oneDNN) but decides the backward pass on the output's
   * size, not the input's, and runs it on oneDNN whenever the output's size divides evenly: the
   * gradients of such a last window are then those of another average (measured against finite
   * differences, {@code PoolingTest}).
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("PoolOp." + type.mxnet + "() has no kernel");
    }
    boolean native64 = type == Type.AVG && convention == PoolConvention.FULL;
    Sym x = native64 ? cast(scope, inputs.get(0), "data", "float64") : inputs.get(0);
    Sym pool =
        scope.op(
            "Pooling",
            Attrs.of(
                "pool_type",
                type.mxnet,
                "kernel",
                Window.tuple("kernel", kernel, kernel, 1),
                "stride",
                Window.tuple("stride", stride.isEmpty() ? kernel : stride, kernel, 1),
                "pad",
                Window.tuple("pad", pad, kernel, 0),
                "pooling_convention",
                convention.name().toLowerCase(Locale.ROOT)),
            x);
    return native64 ? cast(scope, pool, "out", "float32") : pool;
  }

  private static Sym cast(NodeScope scope, Sym x, String what, String type) {
    return scope.op(
        "Cast",
        scope.node() + "_" + what + "_" + type,
        Attrs.of("dtype", type),
        List.of("data"),
        List.of(x));
  }

  /** How the layer is read: its annotations and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(MAX_READER, AVG_READER)
          .file("Pooling", List.of(), PoolOp::pooling)
          .natives(
              Native.of("Pooling")
                  .bf16(Native.Bf16.FOLLOW)
                  .keepsChannels(attrs -> Native.channelsFirst(attrs.apply("layout"))));

  static Mapped pooling(FileAttrs a) {
    a.ignore("cudnn_off");
    a.require("layout", "NCHW", "Kiln computes channels first");
    String type = a.choice("pool_type", "max", "max", "avg");
    if (type.equals("avg")) {
      a.require("count_include_pad", "True", "Kiln's average counts the padding");
    }
    if (a.bool("global_pool", false)) {
      a.ignore("kernel", "stride", "pad", "pooling_convention");
      return Mapped.unary(new GlobalPoolOp(type));
    }
    String convention = a.choice("pooling_convention", "valid", "valid", "full");
    List<Integer> kernel = a.tuple("kernel", List.of());
    if (kernel.size() != 1 && kernel.size() != 2) {
      throw a.unsupported("kernel", "Kiln imports 1-D and 2-D pooling");
    }
    Op op =
        new PoolOp(
            type.equals("max") ? PoolOp.Type.MAX : PoolOp.Type.AVG,
            kernel,
            FileAttrs.orDefault(a.tuple("stride", List.of()), 1),
            FileAttrs.orDefault(a.tuple("pad", List.of()), 0),
            convention.equals("full") ? PoolConvention.FULL : PoolConvention.VALID);
    return Mapped.unary(op);
  }
}
