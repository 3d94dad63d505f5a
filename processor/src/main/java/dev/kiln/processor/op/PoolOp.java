package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.ints;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.MaxPool;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code @MaxPool} or {@code @AvgPool}: MXNet's {@code Pooling} over {@code [N, C, H, W]}; an empty
 * {@code stride} means the kernel's.
 *
 * @param type max or average
 * @param kernel window size
 * @param stride window step, empty for the kernel's
 * @param pad padding on each side
 */
record PoolOp(Type type, List<Integer> kernel, List<Integer> stride, List<Integer> pad)
    implements Op {
  /** Spatial dimensions: height and width. */
  private static final int SPATIAL = 2;

  /** The two kinds of window pooling. */
  enum Type {
    /** {@code @MaxPool}: the largest value of each window. */
    MAX("max", "MaxPool"),
    /** {@code @AvgPool}: the mean of each window. */
    AVG("avg", "AvgPool");

    /** MXNet's {@code pool_type}, and the runtime spec's factory. */
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
          p -> new PoolOp(Type.MAX, list(p.kernel()), list(p.stride()), list(p.pad())),
          "kernel",
          "stride",
          "pad");

  static final OpReader<AvgPool> AVG_READER =
      OpReader.of(
          AvgPool.class,
          p -> new PoolOp(Type.AVG, list(p.kernel()), list(p.stride()), list(p.pad())),
          "kernel",
          "stride",
          "pad");

  /** Copies the window attributes. */
  PoolOp {
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
  private int[] effectiveStride() {
    return Window.expand(stride.isEmpty() ? kernel : stride, SPATIAL);
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.window("kernel", kernel, SPATIAL, true);
    if (!stride.isEmpty()) {
      site.window("stride", stride, SPATIAL, true);
    }
    site.window("pad", pad, SPATIAL, false);
    int[] k = Window.expand(kernel, SPATIAL);
    int[] p = Window.expand(pad, SPATIAL);
    for (int axis = 0; axis < SPATIAL; axis++) {
      if (p[axis] >= k[axis]) {
        throw site.fail(
            Message.PAD_TOO_LARGE,
            "pad",
            site.prefix(),
            p[axis],
            k[axis],
            Window.axisName(axis, SPATIAL));
      }
    }
  }

  /**
   * MXNet {@code PoolingShape} (channels first, {@code valid} convention): output {@code [N, C,
   * out...]} with {@code out = (size + 2p - k) / s + 1} (integer division) per spatial dimension;
   * the kernel must fit the padded input.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    site.requireRank("@" + annotation(), 2 + SPATIAL, "[N, C, H, W]");
    int[] k = Window.expand(kernel, SPATIAL);
    int[] st = effectiveStride();
    int[] p = Window.expand(pad, SPATIAL);
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    for (int axis = 0; axis < SPATIAL; axis++) {
      out.add(Window.out(site, axis, SPATIAL, k[axis], "kernel " + k[axis], st[axis], p[axis]));
    }
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    long f = out.perExample();
    for (int k : Window.expand(kernel, SPATIAL)) {
      f *= k;
    }
    return f;
  }

  @Override
  public NodeCall call(CallSite site) {
    int[] k = Window.expand(kernel, SPATIAL);
    int[] st = effectiveStride();
    int[] p = Window.expand(pad, SPATIAL);
    Args.Chain spec =
        chain("PoolSpec", type.mxnet, ints(k))
            .when(!Arrays.equals(st, k), "stride", ints(st))
            .when(!Window.all(p, 0), "pad", ints(p));
    return NodeCall.Builder.of("node", spec.build(), x());
  }
}
