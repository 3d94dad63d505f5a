package dev.kiln.ops;

import dev.kiln.annotations.Divide;
import dev.kiln.annotations.Maximum;
import dev.kiln.annotations.Multiply;
import dev.kiln.annotations.Subtract;
import dev.kiln.annotations.Sym;
import dev.kiln.names.Broadcast;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * An element-wise operation on two inputs that broadcasts ({@code @Multiply}, {@code @Subtract},
 * {@code @Divide}, {@code @Maximum}): MXNet's {@code broadcast_mul}, {@code broadcast_sub}, {@code
 * broadcast_div} or {@code broadcast_maximum}, the first input on the left. The processor has
 * checked the shapes (equal rank, sizes equal or 1). Generated code writes {@code
 * BroadcastOp.multiply()}.
 *
 * <p>At compile time: {@code @Multiply}, {@code @Subtract}, {@code @Divide} or {@code @Maximum}:
 * MXNet's broadcasting binary operator, the first input on the left, its shapes checked by {@link
 * Broadcast}. Equal shapes also emit the broadcasting operator: MXNet runs it with the element-wise
 * kernels then, and {@code elemwise_mul} measured no faster (forward and backward of {@code [64,
 * 4096]}).
 *
 * @param kind which operation
 */
public record BroadcastOp(Kind kind) implements LayerOp {
  /** The four operations. */
  public enum Kind {
    /** A sum that broadcasts (imports only: {@code @Add} takes equal shapes). */
    ADD("Add", "broadcast_add", "add"),
    /** {@code @Multiply}. */
    MULTIPLY("Multiply", "broadcast_mul", "multiply"),
    /** {@code @Subtract}. */
    SUBTRACT("Subtract", "broadcast_sub", "subtract"),
    /** {@code @Divide}. */
    DIVIDE("Divide", "broadcast_div", "divide"),
    /** {@code @Maximum}. */
    MAXIMUM("Maximum", "broadcast_maximum", "maximum"),
    /** The smaller of the two (imports only). */
    MINIMUM("Minimum", "broadcast_minimum", "minimum"),
    /** The first to the power of the second (imports only: an ONNX {@code Pow} by a tensor). */
    POWER("Power", "broadcast_power", "power");

    final String annotation;
    final String mxnet;

    /** The unit's factory. */
    final String factory;

    Kind(String annotation, String mxnet, String factory) {
      this.annotation = annotation;
      this.mxnet = mxnet;
      this.factory = factory;
    }
  }

  static final OpReader<Multiply> MULTIPLY_READER =
      OpReader.of(Multiply.class, a -> new BroadcastOp(Kind.MULTIPLY));

  static final OpReader<Subtract> SUBTRACT_READER =
      OpReader.of(Subtract.class, a -> new BroadcastOp(Kind.SUBTRACT));

  static final OpReader<Divide> DIVIDE_READER =
      OpReader.of(Divide.class, a -> new BroadcastOp(Kind.DIVIDE));

  static final OpReader<Maximum> MAXIMUM_READER =
      OpReader.of(Maximum.class, a -> new BroadcastOp(Kind.MAXIMUM));

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
    return 2;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /**
   * MXNet {@code BinaryBroadcastShape} with Kiln's equal rank and bind-time sizes ({@link
   * Broadcast}): along each axis the sizes are equal or one is 1; the output takes the other.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    Source a = site.in().get(0);
    Source b = site.in().get(1);
    Broadcast r = Broadcast.of(dims(a.shape()), dims(b.shape()));
    String op = "@" + kind.annotation;
    String both = Source.describeAll(site.in());
    switch (r.problem()) {
      case RANK ->
          throw site.fail(Message.BROADCAST_RANK, null, site.where(), op, both, rankHint(a, b));
      case AXIS -> {
        int axis = r.axis();
        int p = a.shape().dim(axis);
        int q = b.shape().dim(axis);
        throw site.fail(
            Message.BROADCAST_MISMATCH,
            null,
            site.where(),
            op,
            axis,
            size(p),
            size(q),
            both,
            axisHint(axis, p, q));
      }
      case RUNS ->
          throw site.fail(
              Message.BROADCAST_RUNS, null, site.where(), op, both, r.runs(), Broadcast.MAX_RUNS);
      default -> {
        return Inferred.of(TShape.of(r.shape()));
      }
    }
  }

  static int[] dims(TShape s) {
    return s.dims().stream().mapToInt(Integer::intValue).toArray();
  }

  /** {@code 16}, {@code BATCH} or {@code STEPS}. */
  static String size(int d) {
    return TShape.of(d).asArguments();
  }

  /** How the sizes {@code p} and {@code q} of {@code axis} could broadcast. */
  private static String axisHint(int axis, int p, int q) {
    if (p < 0 && q < 0) {
      return size(p)
          + " against "
          + size(q)
          + " broadcasts only when the batch size is the "
          + "number of steps";
    }
    if (p < 0 || q < 0) {
      int unknown = Math.min(p, q);
      int known = Math.max(p, q);
      String what = unknown == TShape.BATCH ? "a batch of " + known : known + " steps";
      return size(unknown)
          + " against "
          + known
          + " would broadcast for "
          + what
          + " only: make "
          + "that axis 1 or "
          + size(unknown)
          + " in both";
    }
    return "make axis " + axis + " equal in both, or 1 in one of them";
  }

  /**
   * A reshape of the lower-rank input that broadcasts against the other, written as the node that
   * makes it: ones after its last axis ({@code [N, C]} as {@code [N, C, 1, 1]}), after its first,
   * or before it, the first that fits; else the general advice.
   */
  private static String rankHint(Source a, Source b) {
    Source low = a.shape().rank() < b.shape().rank() ? a : b;
    Source high = low == a ? b : a;
    List<Integer> d = low.shape().dims();
    int pad = high.shape().rank() - d.size();
    List<Integer> ones = new ArrayList<>();
    for (int i = 0; i < pad; i++) {
      ones.add(1);
    }
    List<List<Integer>> candidates = new ArrayList<>();
    candidates.add(concat(d, ones, List.of()));
    if (d.size() > 1) {
      candidates.add(concat(d.subList(0, 1), ones, d.subList(1, d.size())));
    }
    candidates.add(concat(List.of(), ones, d));
    String name = low.node();
    for (List<Integer> c : candidates) {
      TShape t = new TShape(c);
      boolean reshapeable = c.stream().filter(x -> x < 0).count() <= 1 && !c.contains(TShape.STEPS);
      boolean fits =
          low == a
              ? Broadcast.of(dims(t), dims(high.shape())).ok()
              : Broadcast.of(dims(high.shape()), dims(t)).ok();
      if (reshapeable && fits) {
        return "reshape "
            + name
            + " to "
            + t
            + " first, with a node @Reshape(shape = {"
            + t.asArguments()
            + "}) that reads "
            + name
            + ", and use that node instead";
      }
    }
    return "reshape "
        + name
        + " to rank "
        + high.shape().rank()
        + " first, with a node @Reshape "
        + "that reads it, and use that node instead";
  }

  private static List<Integer> concat(List<Integer> x, List<Integer> y, List<Integer> z) {
    List<Integer> out = new ArrayList<>(x);
    out.addAll(y);
    out.addAll(z);
    return out;
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node", Args.chain(BroadcastOp.class, kind.factory).build(), new NodeCall.Inputs());
  }

  /** The sum, broadcasting. */
  public static BroadcastOp add() {
    return new BroadcastOp(Kind.ADD);
  }

  /** The product. */
  public static BroadcastOp multiply() {
    return new BroadcastOp(Kind.MULTIPLY);
  }

  /** The first input minus the second. */
  public static BroadcastOp subtract() {
    return new BroadcastOp(Kind.SUBTRACT);
  }

  /** The first input divided by the second. */
  public static BroadcastOp divide() {
    return new BroadcastOp(Kind.DIVIDE);
  }

  /** The larger of the two. */
  public static BroadcastOp maximum() {
    return new BroadcastOp(Kind.MAXIMUM);
  }

  /** The smaller of the two. */
  public static BroadcastOp minimum() {
    return new BroadcastOp(Kind.MINIMUM);
  }

  /** The first input to the power of the second. */
  public static BroadcastOp power() {
    return new BroadcastOp(Kind.POWER);
  }

  /** MXNet's broadcasting operator, the first input on the left. */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(kind.mxnet, scope.node(), Attrs.of(), List.of("lhs", "rhs"), inputs);
  }

  /** How the layer is read: its annotations and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(MULTIPLY_READER, SUBTRACT_READER, DIVIDE_READER, MAXIMUM_READER)
          .file(
              "broadcast_mul",
              List.of("elemwise_mul", "_Mul", "_mul"),
              a -> Mapped.data(multiply(), 2))
          .file(
              "broadcast_sub",
              List.of("elemwise_sub", "_Minus", "_minus", "_sub"),
              a -> Mapped.data(subtract(), 2))
          .file(
              "broadcast_div",
              List.of("elemwise_div", "_Div", "_div"),
              a -> Mapped.data(divide(), 2))
          .file(
              "broadcast_maximum", List.of("_Maximum", "_maximum"), a -> Mapped.data(maximum(), 2));
}
