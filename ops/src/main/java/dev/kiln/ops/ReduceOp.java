package dev.kiln.ops;

import dev.kiln.annotations.Mean;
import dev.kiln.annotations.Sum;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A mean or sum over some axes ({@code @Mean}, {@code @Sum}): MXNet's {@code mean} or {@code sum}
 * with {@code axis} and {@code keepdims}; imports also make the greatest, least and product ({@code
 * max}, {@code min}, {@code prod}), which no annotation declares. The processor writes the axes it
 * reduces explicitly (never MXNet's empty axis, which would reduce the batch too). Generated code
 * writes {@code ReduceOp.mean(1, 2).keepDims()}.
 *
 * <p>At compile time: {@code @Mean} or {@code @Sum}: MXNet's {@code mean} or {@code sum} over the
 * axes given, or, when none are, over every axis but the batch (MXNet's empty axis would reduce the
 * batch too, which Kiln never does).
 *
 * @param kind mean or sum
 * @param axes the axes reduced, as written
 * @param keptDims whether they stay in the shape with size 1
 */
public record ReduceOp(Kind kind, List<Integer> axes, boolean keptDims) implements LayerOp {
  /** The two reductions. */
  public enum Kind {
    /** {@code @Mean}. */
    MEAN("Mean", "mean", "average over"),
    /** {@code @Sum}. */
    SUM("Sum", "sum", "sum over"),
    /** The greatest value, read only from imports (ONNX {@code ReduceMax}). */
    MAX("Max", "max", "take the greatest over"),
    /** The least value, read only from imports (ONNX {@code ReduceMin}). */
    MIN("Min", "min", "take the least over"),
    /** The product, read only from imports (ONNX {@code ReduceProd}). */
    PROD("Prod", "prod", "multiply over");

    final String annotation;

    /** MXNet's operator, and the unit's factory. */
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
  public ReduceOp {
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
      } else if (keptDims) {
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
            site.annotationText(),
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
        Args.chain(ReduceOp.class, kind.mxnet, Args.ints(reduced))
            .when(keptDims, "keepDims")
            .build(),
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

  /** The mean over {@code axes}. */
  public static ReduceOp mean(int... axes) {
    return new ReduceOp(Kind.MEAN, list(axes), false);
  }

  /** The sum over {@code axes}. */
  public static ReduceOp sum(int... axes) {
    return new ReduceOp(Kind.SUM, list(axes), false);
  }

  /** The greatest value over {@code axes}. */
  public static ReduceOp max(int... axes) {
    return new ReduceOp(Kind.MAX, list(axes), false);
  }

  /** The least value over {@code axes}. */
  public static ReduceOp min(int... axes) {
    return new ReduceOp(Kind.MIN, list(axes), false);
  }

  /** The product over {@code axes}. */
  public static ReduceOp prod(int... axes) {
    return new ReduceOp(Kind.PROD, list(axes), false);
  }

  /** This reduction with the reduced axes kept, of size 1. */
  public ReduceOp keepDims() {
    return new ReduceOp(kind, axes, true);
  }

  /**
   * MXNet's {@code mean} or {@code sum} over the axes given, which the processor writes out (never
   * MXNet's empty axis, which would reduce the batch too).
   *
   * @throws IllegalArgumentException when no axis is given
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (axes.isEmpty()) {
      throw new IllegalArgumentException(
          scope.source() + ": name the axes to reduce; MXNet would reduce the batch too");
    }
    int[] a = axes.stream().mapToInt(Integer::intValue).toArray();
    return scope.op(
        kind.mxnet, Attrs.of("axis", Attrs.tuple(a), "keepdims", keptDims), inputs.get(0));
  }

  /** How the layer is read: its annotations and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(MEAN_READER, SUM_READER)
          .file("mean", List.of(), a -> reduce(a, Kind.MEAN))
          .file("sum", List.of("sum_axis"), a -> reduce(a, Kind.SUM));

  static Mapped reduce(FileAttrs a, ReduceOp.Kind kind) {
    a.require("exclude", "False", "Kiln reduces the axes named");
    List<Integer> axes = a.tuple("axis", List.of());
    if (axes.isEmpty()) {
      throw a.unsupported(
          "axis", "the file reduces every axis, the batch's too; Kiln keeps one value per example");
    }
    return Mapped.unary(new ReduceOp(kind, axes, a.bool("keepdims", false)));
  }
}
