package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

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
  private int counter;

  Trace(SymbolArena arena, NodeSource src, String layer, String prefix) {
    this.arena = arena;
    this.src = src;
    this.layer = layer;
    this.prefix = prefix;
  }

  /** Begins the trace over {@code input} with {@code params}, as its first line says. */
  void start(SymNode input, List<Sym> params) {
    steps
        .append("\n  shapes through the body of ")
        .append(layer)
        .append(", from input ")
        .append(input.operand());
    List<String> shown = params.stream().map(p -> ((SymNode) p).operand()).toList();
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

  /** The lines of the trace so far, each starting a new line. */
  String steps() {
    return steps.toString();
  }

  SymNode dot(SymNode a, SymNode b) {
    Shape x = a.shape();
    Shape y = b.shape();
    if (x.rank() < 1 || y.rank() < 1 || !fits(x.dim(x.rank() - 1), y.dim(0))) {
      throw error(
          "dot",
          List.of(a, b),
          "the last dimension of the left must equal the " + "first of the right");
    }
    int[] out = new int[x.rank() - 1 + y.rank() - 1];
    for (int i = 0; i < x.rank() - 1; i++) {
      out[i] = x.dim(i);
    }
    for (int j = 1; j < y.rank(); j++) {
      out[x.rank() - 2 + j] = y.dim(j);
    }
    return emit("dot", "dot", List.of("lhs", "rhs"), List.of(a, b), Shape.of(out));
  }

  SymNode broadcast(String op, String label, SymNode a, SymNode b) {
    Shape x = a.shape();
    Shape y = b.shape();
    int rank = Math.max(x.rank(), y.rank());
    int[] out = new int[rank];
    for (int i = 1; i <= rank; i++) {
      int p = i <= x.rank() ? x.dim(x.rank() - i) : 1;
      int q = i <= y.rank() ? y.dim(y.rank() - i) : 1;
      if (p == q || q == 1) {
        out[rank - i] = p;
      } else if (p == 1) {
        out[rank - i] = q;
      } else {
        throw error(label, List.of(a, b), "each pair of trailing dimensions must be equal or 1");
      }
    }
    return emit(op, label, List.of("lhs", "rhs"), List.of(a, b), Shape.of(out));
  }

  SymNode sum(SymNode a, int axis) {
    Shape x = a.shape();
    if (axis < -x.rank() || axis >= x.rank()) {
      steps
          .append("\n    sum(")
          .append(a.operand())
          .append(", axis ")
          .append(axis)
          .append(") is out of range");
      throw new ModelException(
          src,
          src
              + ": in layer "
              + layer
              + ", sum over axis "
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
    int ax = axis < 0 ? axis + x.rank() : axis;
    int[] d = x.dims();
    int[] out = new int[Math.max(1, d.length - 1)];
    out[0] = 1;
    for (int i = 0, j = 0; i < d.length; i++) {
      if (i != ax) {
        out[j++] = d[i];
      }
    }
    return emit(
        "sum", "sum", List.of("data"), List.of(a), Shape.of(out), "axis", Integer.toString(ax));
  }

  SymNode unary(String op, String label, SymNode a, Shape out, String... keyValues) {
    return emit(op, label, List.of("data"), List.of(a), out, keyValues);
  }

  private SymNode emit(
      String op,
      String label,
      List<String> keys,
      List<SymNode> args,
      Shape out,
      String... keyValues) {
    String name = prefix + "_" + label + counter++;
    Object[] kv = new Object[keyValues.length];
    System.arraycopy(keyValues, 0, kv, 0, kv.length);
    Sym made = arena.op(src, op, name, Attrs.of(kv), keys, List.copyOf(args));
    StringBuilder shown = new StringBuilder(operands(args));
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      if (!keyValues[i].equals("act_type")) {
        shown.append(", ").append(keyValues[i]).append(' ').append(keyValues[i + 1]);
      }
    }
    steps
        .append("\n    ")
        .append(name)
        .append(" = ")
        .append(label)
        .append('(')
        .append(shown)
        .append(") -> ")
        .append(out);
    return new SymNode(made.name(), ((SymNode) made).handle(), out, this);
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

  /** Dimensions fit when equal; BATCH only equals BATCH, since its size is not known yet. */
  private boolean fits(int p, int q) {
    return p == q;
  }

  private static String operands(List<SymNode> args) {
    return String.join(", ", args.stream().map(SymNode::operand).toList());
  }

  private ModelException error(String op, List<SymNode> args, String rule) {
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
