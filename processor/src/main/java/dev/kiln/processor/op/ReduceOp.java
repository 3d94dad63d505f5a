package dev.kiln.processor.op;

import dev.kiln.annotations.Mean;
import dev.kiln.annotations.Sum;
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
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code @Mean} or {@code @Sum}: MXNet's {@code mean} or {@code sum} over the axes given, or, when
 * none are, over every axis but the batch (MXNet's empty axis would reduce the batch too, which
 * Kiln never does).
 *
 * @param kind mean or sum
 * @param axes the axes reduced, as written
 * @param keepDims whether they stay in the shape with size 1
 */
record ReduceOp(Kind kind, List<Integer> axes, boolean keepDims) implements Op {
  /** The two reductions. */
  enum Kind {
    /** {@code @Mean}. */
    MEAN("Mean", "mean", "average over"),
    /** {@code @Sum}. */
    SUM("Sum", "sum", "sum over");

    final String annotation;

    /** MXNet's operator, and the runtime spec's factory. */
    final String mxnet;

    /** What it does to an axis, for messages. */
    final String verb;

    Kind(String annotation, String mxnet, String verb) {
      this.annotation = annotation;
      this.mxnet = mxnet;
      this.verb = verb;
    }
  }

  static final OpReader<Mean> MEAN_READER =
      OpReader.of(
          Mean.class,
          m -> new ReduceOp(Kind.MEAN, list(m.axes()), m.keepDims()),
          "axes",
          "keepDims");

  static final OpReader<Sum> SUM_READER =
      OpReader.of(
          Sum.class, m -> new ReduceOp(Kind.SUM, list(m.axes()), m.keepDims()), "axes", "keepDims");

  /** Copies the axes. */
  ReduceOp {
    axes = List.copyOf(axes);
  }

  private static List<Integer> list(int[] values) {
    return Arrays.stream(values).boxed().toList();
  }

  @Override
  public String annotation() {
    return kind.annotation;
  }

  @Override
  public String mxnetOp() {
    return kind.mxnet;
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The axes are checked against the input's rank.
  }

  /**
   * MXNet {@code ReduceAxesShape}: each axis in range and listed once; reduced axes removed (kept
   * as 1 with {@code keepDims}), {@code [1]} when none is left. No axis of size {@code BATCH}.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    TreeSet<Integer> reduced = reduced(site);
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < s.rank(); i++) {
      if (!reduced.contains(i)) {
        out.add(s.dim(i));
      } else if (keepDims) {
        out.add(1);
      }
    }
    return Inferred.of(out.isEmpty() ? TShape.of(1) : new TShape(out));
  }

  /** The axes reduced, non-negative and checked: in range, once each, none the batch. */
  private TreeSet<Integer> reduced(ShapeSite site) {
    TShape s = site.shape();
    int r = s.rank();
    int[] written = new int[r];
    TreeSet<Integer> seen = new TreeSet<>();
    for (int a : axes) {
      if (a < -r || a >= r) {
        throw site.fail(
            Message.BAD_AXIS, "axes", site.where(), a, site.x().describe(), r, -r, r - 1);
      }
      int n = a < 0 ? a + r : a;
      if (!seen.add(n)) {
        throw site.fail(
            Message.REPEATED_AXIS, "axes", site.prefix(), n, site.x().describe(), written[n], a);
      }
      written[n] = a;
    }
    TreeSet<Integer> reduced = axesOf(s);
    List<Integer> others = new ArrayList<>();
    for (int i = 0; i < r; i++) {
      if (s.dim(i) != TShape.BATCH) {
        others.add(i);
      }
    }
    for (int a : reduced.isEmpty() ? List.of(0) : reduced) {
      if (s.dim(a) == TShape.BATCH) {
        String hint =
            others.isEmpty()
                ? s + " has no axis but the batch to reduce"
                : "reduce the other axes, axes = {"
                    + others.stream().map(String::valueOf).collect(Collectors.joining(", "))
                    + "}, or leave axes empty for every axis but the batch";
        throw site.fail(
            Message.ACROSS_BATCH,
            "axes",
            site.where(),
            site.node().annotationText(),
            kind.verb,
            a,
            site.x().describe(),
            hint);
      }
    }
    return reduced;
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return in.get(0).perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    TShape in = site.inputs().get(0);
    int[] reduced = axesOf(in).stream().mapToInt(Integer::intValue).toArray();
    return NodeCall.Builder.of(
        "node",
        Args.chain("ReduceSpec", kind.mxnet, Args.ints(reduced)).when(keepDims, "keepDims").build(),
        Args.x());
  }

  /**
   * The axes reduced over an input of shape {@code s}, non-negative and sorted: those written, or,
   * when none are, every axis whose size is not {@code BATCH}.
   */
  private TreeSet<Integer> axesOf(TShape s) {
    int r = s.rank();
    TreeSet<Integer> reduced = new TreeSet<>();
    for (int a : axes) {
      reduced.add(a < 0 ? a + r : a);
    }
    if (axes.isEmpty()) {
      for (int i = 0; i < r; i++) {
        if (s.dim(i) != TShape.BATCH) {
          reduced.add(i);
        }
      }
    }
    return reduced;
  }
}
