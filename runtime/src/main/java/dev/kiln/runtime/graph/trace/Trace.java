package dev.kiln.runtime.graph.trace;

import dev.kiln.annotations.Sym;
import dev.kiln.names.Broadcast;
import dev.kiln.ops.MatMulOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.graph.SymNode;
import dev.kiln.runtime.graph.SymbolArena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One custom layer's forward pass, or one step of a cell's, being traced: names its operators
 * {@code <prefix>_<op><n>} and checks each operation's shapes, reporting the layer, the node, the
 * operation and both shapes when they do not fit, with every operation traced before it and its
 * shapes. {@code BATCH} is symbolic here: it matches only itself (and 1 when broadcasting).
 */
final class Trace {
  private final SymbolArena arena;
  private final NodeSource src;
  private final String layer;
  private final String prefix;
  private final StringBuilder steps = new StringBuilder();
  private final Set<String> params = new LinkedHashSet<>();
  private final Set<String> read = new HashSet<>();
  private int counter;

  Trace(SymbolArena arena, NodeSource src, String layer, String prefix) {
    this.arena = arena;
    this.src = src;
    this.layer = layer;
    this.prefix = prefix;
  }

  /** Begins the trace over {@code input} with {@code params}, as its first line says. */
  void start(TracedSym input, List<Sym> params) {
    steps
        .append("\n  shapes through the body of ")
        .append(layer)
        .append(", from input ")
        .append(input.operand());
    params.forEach(p -> this.params.add(p.name()));
    List<String> shown = params.stream().map(p -> ((TracedSym) p).operand()).toList();
    if (shown.size() == 1) {
      steps.append(" and parameter ").append(shown.get(0)).append(" (its @Param shape)");
    } else if (!shown.isEmpty()) {
      steps
          .append(" and parameters ")
          .append(String.join(", ", shown))
          .append(" (their @Param shapes)");
    }
    steps.append(':');
  }

  /** The parameters no operation so far has read, in the order the layer declares them. */
  List<String> unreadParams() {
    return params.stream().filter(p -> !read.contains(p)).toList();
  }

  /** The lines of the trace so far, each starting a new line. */
  String steps() {
    return steps.toString();
  }

  TracedSym dot(TracedSym a, TracedSym b) {
    Shape x = a.shape();
    Shape y = b.shape();
    // MXNet's DotShape, the one home of the rule (the processor traces the body with it too).
    TShape product = MatMulOp.dot(TShape.of(x.dims()), TShape.of(y.dims()));
    if (product == null) {
      throw error(
          "dot",
          List.of(a, b),
          "the last dimension of the left must equal the " + "first of the right");
    }
    List<String> axes = new ArrayList<>();
    for (int i = 0; i < x.rank() - 1; i++) {
      axes.add(a.axis(i));
    }
    for (int j = 1; j < y.rank(); j++) {
      axes.add(b.axis(j));
    }
    return emit("dot", "dot", List.of("lhs", "rhs"), List.of(a, b), Shape.of(product), axes);
  }

  /**
   * {@code batch_dot}: operands of one rank, 3 or more, whose leading dimensions are equal; the
   * left's last dimension equal to the right's second last (its last when {@code transposeB}).
   */
  TracedSym batchDot(TracedSym a, TracedSym b, boolean transposeB) {
    Shape x = a.shape();
    Shape y = b.shape();
    int r = x.rank();
    if (r < 3 || y.rank() != r) {
      throw error(
          "batchDot",
          List.of(a, b),
          "both operands need one rank, 3 or more (a stack of matrices)");
    }
    // The @MatMul unit's rule (MXNet's BatchDotShape) decides, as in the processor's trace.
    List<Source> operands =
        List.of(
            new Source(TShape.of(x.dims()), a.label(), "in the body of " + layer),
            new Source(TShape.of(y.dims()), b.label(), "in the body of " + layer));
    TShape product;
    try {
      product =
          new MatMulOp("batch_dot", false, transposeB)
              .infer(new ShapeSite(prefix, prefix, "batchDot", operands))
              .shape();
    } catch (RuleError e) {
      String why =
          switch (e.message) {
            case MATMUL_BATCH -> "the leading dimensions must be equal";
            case MATMUL_INNER ->
                "the last dimension of the left must equal the "
                    + (transposeB ? "last" : "second last")
                    + " of the right";
            default -> e.rule();
          };
      throw error("batchDot", List.of(a, b), why);
    }
    int[] out = Shape.of(product).dims();
    List<String> axes = new ArrayList<>();
    for (int i = 0; i < r - 1; i++) {
      axes.add(a.axis(i));
    }
    axes.add(b.axis(transposeB ? r - 2 : r - 1));
    return emit(
        "batch_dot",
        "batch_dot",
        List.of("lhs", "rhs"),
        List.of(a, b),
        Shape.of(out),
        axes,
        "transpose_b",
        transposeB ? "True" : "False");
  }

  /** Checks that {@code axis} is within the rank of {@code a} for operation {@code op}. */
  void axis(String op, TracedSym a, int axis) {
    Shape x = a.shape();
    if (axis < -x.rank() || axis >= x.rank()) {
      steps
          .append("\n    ")
          .append(op)
          .append('(')
          .append(a.operand())
          .append(", axis ")
          .append(axis)
          .append(") is out of range");
      throw new ModelException(
          src,
          src
              + ": in layer "
              + layer
              + ", "
              + op
              + " over axis "
              + axis
              + " of "
              + x
              + " is out of range (allowed: "
              + -x.rank()
              + " to "
              + (x.rank() - 1)
              + ")"
              + steps,
          null);
    }
  }

  TracedSym broadcast(String op, String label, TracedSym a, TracedSym b) {
    Shape x = a.shape();
    Shape y = b.shape();
    int rank = Math.max(x.rank(), y.rank());
    // MXNet lines up the last axes; the rule itself (sizes, BATCH, runs) is the one home's.
    Broadcast rule = Broadcast.of(leadingOnes(x, rank), leadingOnes(y, rank));
    if (rule.problem() == Broadcast.Problem.AXIS) {
      String why = "each pair of trailing dimensions must be equal or 1";
      if (x.rank() != y.rank()) {
        // MXNet lines up the last axes: say how the lower-rank operand lines up where it should.
        TracedSym low = x.rank() < y.rank() ? a : b;
        why += "; " + rankFix(low, low == a ? b : a);
      }
      throw error(label, List.of(a, b), why);
    }
    if (rule.problem() == Broadcast.Problem.RUNS) {
      throw error(
          label,
          List.of(a, b),
          "the axes broadcast in "
              + rule.runs()
              + " runs, and MXNet's broadcast kernels take at most "
              + Broadcast.MAX_RUNS);
    }
    int[] out = rule.shape();
    String[] axes = Broadcast.names(x.dims(), names(a), y.dims(), names(b));
    if (x.rank() != y.rank()) {
      checkRanks(label, a, b);
    }
    PerAxisForm fast = PerAxisForm.of(op, a, b, out);
    if (fast != null) {
      return perAxis(fast, label, List.of(a, b), Shape.of(out), Arrays.asList(axes));
    }
    return emit(
        op, label, List.of("lhs", "rhs"), List.of(a, b), Shape.of(out), Arrays.asList(axes));
  }

  /** The names of {@code s}'s axes, null where an axis has none. */
  private static String[] names(TracedSym s) {
    String[] names = new String[s.shape().rank()];
    for (int i = 0; i < names.length; i++) {
      names[i] = s.axis(i);
    }
    return names;
  }

  /** {@code s}'s dimensions after enough leading 1s to make {@code rank} of them. */
  private static int[] leadingOnes(Shape s, int rank) {
    int[] dims = new int[rank];
    Arrays.fill(dims, 1);
    System.arraycopy(s.dims(), 0, dims, rank - s.rank(), s.rank());
    return dims;
  }

  /**
   * Operands of different rank: MXNet lines up their last axes, so a parameter {@code [channels]}
   * against {@code [BATCH, channels, h, w]} meets {@code w}, and broadcasts only when {@code
   * channels == w}, by coincidence. Where the layer's shape patterns name both axes of a pair so
   * lined up, and the pair has the same size (more than 1), the names must agree; otherwise the
   * operation is refused, with the declaration of the lower-rank operand that lines its names up
   * where the other operand has them.
   */
  private void checkRanks(String op, TracedSym a, TracedSym b) {
    TracedSym low = a.shape().rank() < b.shape().rank() ? a : b;
    TracedSym high = low == a ? b : a;
    int k = low.shape().rank();
    int n = high.shape().rank();
    // The rule is names.Broadcast's, which the processor's compile-time trace shares.
    int j = Broadcast.misnamed(low.shape().dims(), names(low), high.shape().dims(), names(high));
    if (j >= 0) {
      int h = n - k + j;
      int size = low.shape().dim(j);
      String mine = low.axis(j);
      String theirs = high.axis(h);
      steps
          .append("\n    ")
          .append(op)
          .append('(')
          .append(operands(List.of(a, b)))
          .append(") lines up ")
          .append(mine)
          .append(" with ")
          .append(theirs);
      throw new ModelException(
          src,
          src
              + ": in layer "
              + layer
              + ", "
              + op
              + " of "
              + a.shape()
              + " and "
              + b.shape()
              + " lines up axis "
              + mine
              + " of "
              + low.label()
              + " with axis "
              + h
              + " ("
              + theirs
              + ") of "
              + high.label()
              + " only because both are "
              + size
              + ": MXNet lines up the last axes of operands of different rank, so broadcasting "
              + "in a custom layer needs equal rank (a leading BATCH aside); "
              + rankFix(low, high)
              + steps,
          null);
    }
  }

  /** How to give {@code low} the rank of {@code high}, its named axes where {@code high}'s are. */
  private String rankFix(TracedSym low, TracedSym high) {
    int k = low.shape().rank();
    int n = high.shape().rank();
    int at = Broadcast.lineUp(low.shape().dims(), names(low), high.shape().dims(), names(high));
    if (at >= 0 && at < n - k) {
      Broadcast.Widened w =
          Broadcast.Widened.of(low.shape().dims(), names(low), high.shape().dims(), at);
      List<String> tokens = w.tokens().stream().map(t -> '"' + t + '"').toList();
      List<String> sizes = w.sizes().stream().map(String::valueOf).toList();
      String shape = "[" + String.join(", ", sizes) + "]";
      String where =
          ", which lines "
              + (low.axis(0) == null ? "it" : low.axis(0))
              + " up with axis "
              + at
              + " of "
              + high.label();
      return params.contains(low.name())
          ? "declare it @Param(shape = {" + String.join(", ", tokens) + "}) (" + shape + ")" + where
          : "give " + low.label() + " the shape " + shape + where;
    }
    return "give "
        + low.label()
        + " one axis per axis of "
        + high.shape()
        + " after its leading BATCH, 1 where it does not vary";
  }

  /**
   * {@code Reshape} to {@code target}, sizes with at most one {@code BATCH} (-1) inferred: the rule
   * is the {@code @Reshape} unit's ({@link ReshapeOp}), which the processor's compile-time trace
   * uses too, so the number of values must stay the same for every batch size. The result's axes
   * have no names.
   */
  TracedSym reshape(TracedSym a, int[] target) {
    String written = Arrays.toString(target).replace("-1", "BATCH");
    String why = null;
    TShape out = null;
    if (Arrays.stream(target).anyMatch(d -> d == 0 || d < -1)) {
      why = "reshape takes sizes and BATCH (-1) only";
    } else {
      TShape in = TShape.of(a.shape().dims());
      Source operand = new Source(in, a.label(), "in the body of " + layer);
      ShapeSite site = new ShapeSite(prefix, prefix, "reshape", List.of(operand));
      try {
        out = ReshapeOp.of(target).infer(site).shape();
      } catch (RuleError e) {
        why = e.rule();
      }
    }
    if (why != null) {
      steps
          .append("\n    reshape(")
          .append(a.operand())
          .append(", ")
          .append(written)
          .append(") does not fit");
      throw new ModelException(
          src,
          src
              + ": in layer "
              + layer
              + ", reshape of "
              + a.shape()
              + " to "
              + written
              + " does not fit: "
              + why
              + steps,
          null);
    }
    return emit(
        "Reshape",
        "reshape",
        List.of("data"),
        List.of(a),
        Shape.of(out),
        null,
        "shape",
        Attrs.tuple(target));
  }

  TracedSym sum(TracedSym a, int axis) {
    axis("sum", a, axis);
    Shape x = a.shape();
    int ax = axis < 0 ? axis + x.rank() : axis;
    int[] d = x.dims();
    int[] out = new int[Math.max(1, d.length - 1)];
    out[0] = 1;
    List<String> axes = new ArrayList<>();
    for (int i = 0, j = 0; i < d.length; i++) {
      if (i != ax) {
        out[j++] = d[i];
        axes.add(a.axis(i));
      }
    }
    if (axes.isEmpty()) {
      axes.add(null);
    }
    return emit(
        "sum",
        "sum",
        List.of("data"),
        List.of(a),
        Shape.of(out),
        axes,
        "axis",
        Integer.toString(ax));
  }

  /** A one-operand operation whose result has shape {@code out} with axes named {@code axes}. */
  TracedSym unary(
      String op, String label, TracedSym a, Shape out, List<String> axes, String... keyValues) {
    return emit(op, label, List.of("data"), List.of(a), out, axes, keyValues);
  }

  private TracedSym emit(
      String op,
      String label,
      List<String> keys,
      List<TracedSym> args,
      Shape out,
      List<String> axes,
      String... keyValues) {
    String name = prefix + "_" + label + counter++;
    Object[] kv = new Object[keyValues.length];
    System.arraycopy(keyValues, 0, kv, 0, kv.length);
    SymNode made = arena.op(src, op, name, Attrs.of(kv), keys, List.copyOf(args));
    args.forEach(a -> read.add(a.name()));
    StringBuilder shown = new StringBuilder(operands(args));
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      if (!keyValues[i].equals("act_type")) {
        shown.append(", ").append(keyValues[i]).append(' ').append(keyValues[i + 1]);
      }
    }
    return traced(made, label, shown.toString(), out, axes);
  }

  /** {@code made}, computing {@code label(shown)} of shape {@code out}, as a line of the trace. */
  private TracedSym traced(SymNode made, String label, String shown, Shape out, List<String> axes) {
    steps
        .append("\n    ")
        .append(made.name())
        .append(" = ")
        .append(label)
        .append('(')
        .append(shown)
        .append(") -> ")
        .append(out);
    boolean named = axes != null && axes.stream().anyMatch(java.util.Objects::nonNull);
    return new TracedSym(made, out, this, made.name(), named ? axes : null);
  }

  /**
   * A broadcasting {@code mul}, {@code add} or {@code sub} in its fast form (see {@link
   * PerAxisForm}): a depthwise 1x1 {@code Convolution}, with the reshapes around it, named {@code
   * <name>_in}, {@code <name>_weight}, {@code <name>_bias} and so on, the result {@code <name>};
   * one line of the trace.
   */
  private TracedSym perAxis(
      PerAxisForm f, String label, List<TracedSym> args, Shape out, List<String> axes) {
    String name = prefix + "_" + label + counter++;
    args.forEach(a -> read.add(a.name()));
    int c = f.channels();
    List<String> data = List.of("data");
    Sym x = f.full();
    if (!f.fullIsImage()) {
      x = arena.op(src, "Reshape", name + "_in", Attrs.of("shape", f.shape4d()), data, List.of(x));
    }
    Attrs weightShape = Attrs.of("shape", Attrs.tuple(c, 1, 1, 1));
    Sym w = arena.op(src, "Reshape", name + "_weight", weightShape, data, List.of(f.small()));
    String conv = f.fullIsImage() ? name : name + "_conv";
    boolean mul = f.op().equals("broadcast_mul");
    Attrs window = Attrs.of("kernel", "(1,1)", "num_filter", c, "num_group", c, "no_bias", mul);
    SymNode y;
    if (mul) {
      y = arena.op(src, "Convolution", conv, window, List.of("data", "weight"), List.of(x, w));
    } else {
      Sym ones = arena.op(src, "ones_like", name + "_ones", Attrs.of(), data, List.of(w));
      Attrs biasShape = Attrs.of("shape", Attrs.tuple(c));
      Sym bias = arena.op(src, "Reshape", name + "_bias", biasShape, data, List.of(f.small()));
      if (f.op().equals("broadcast_sub")) {
        bias = arena.op(src, "negative", name + "_minus", Attrs.of(), data, List.of(bias));
      }
      List<String> keys = List.of("data", "weight", "bias");
      y = arena.op(src, "Convolution", conv, window, keys, List.of(x, ones, bias));
    }
    if (!f.fullIsImage()) {
      y = arena.op(src, "Reshape", name, Attrs.of("shape", f.outShape()), data, List.of(y));
    }
    return traced(y, label, operands(args) + ", as a depthwise 1x1 convolution", out, axes);
  }

  /** The error for an operand of {@code op} named {@code operand} that is not this pass's. */
  IllegalArgumentException foreign(String op, String operand) {
    return new IllegalArgumentException(
        src
            + ": in layer "
            + layer
            + ", "
            + op
            + " reads "
            + operand
            + ", which is not a value of this forward pass; a body computes from its "
            + "input and its parameters only");
  }

  private static String operands(List<TracedSym> args) {
    return String.join(", ", args.stream().map(TracedSym::operand).toList());
  }

  private ModelException error(String op, List<TracedSym> args, String rule) {
    steps.append("\n    ").append(op).append('(').append(operands(args)).append(") does not fit");
    return new ModelException(
        src,
        src
            + ": in layer "
            + layer
            + ", "
            + op
            + " of "
            + args.get(0).shape()
            + " and "
            + args.get(1).shape()
            + " does not fit: "
            + rule
            + steps,
        null);
  }
}
