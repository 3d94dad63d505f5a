package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The runtime's {@link Sym}: one MXNet symbol handle made while a graph is built, owned by the
 * {@link GraphBuilder} that made it. Inside a custom layer's forward pass it also knows its shape
 * (with {@code -1} for BATCH) and the layer it belongs to, so that every operation can check its
 * operands before MXNet sees them, and, where the layer's declarations name them, the dimension
 * names of its axes (the input's and parameters' shape patterns, carried through every operation).
 */
final class SymNode implements Sym {
  private final String name;
  private final SymbolHandle handle;
  private final Shape shape;
  private final Trace trace;
  private final String label;
  private final NodeSource source;
  private final List<String> axes;

  SymNode(String name, SymbolHandle handle) {
    this(name, handle, (NodeSource) null);
  }

  /** A symbol that built-in node {@code source} made (null for a parameter or state). */
  SymNode(String name, SymbolHandle handle, NodeSource source) {
    this(name, handle, null, null, name, source, null);
  }

  SymNode(String name, SymbolHandle handle, Shape shape, Trace trace) {
    this(name, handle, shape, trace, name, null, null);
  }

  /** A symbol that a trace shows as {@code label} (the input as the node it comes from). */
  SymNode(String name, SymbolHandle handle, Shape shape, Trace trace, String label) {
    this(name, handle, shape, trace, label, null, null);
  }

  /**
   * A symbol of a trace (or, with a null {@code trace}, a parameter before one) whose axes are
   * named {@code axes}, one per dimension of {@code shape}: a dimension name of the layer, or null
   * for an axis with none (a number in the pattern); a null list when no axis is named.
   */
  SymNode(
      String name, SymbolHandle handle, Shape shape, Trace trace, String label, List<String> axes) {
    this(name, handle, shape, trace, label, null, axes);
  }

  private SymNode(
      String name,
      SymbolHandle handle,
      Shape shape,
      Trace trace,
      String label,
      NodeSource source,
      List<String> axes) {
    this.name = name;
    this.handle = handle;
    this.shape = shape;
    this.trace = trace;
    this.label = label;
    this.source = source;
    boolean fits = axes != null && shape != null && axes.size() == shape.rank();
    this.axes = fits ? Collections.unmodifiableList(new ArrayList<>(axes)) : null;
  }

  /**
   * The dimension names of the axes, as a shape pattern's names ({@code channels}) with null where
   * an axis has none; null when none is known.
   */
  List<String> axes() {
    return axes;
  }

  /** The name of axis {@code i}, or null. */
  String axis(int i) {
    return axes == null ? null : axes.get(i);
  }

  /** How a trace labels this operand, e.g. {@code scores_weight}. */
  String label() {
    return label;
  }

  /** How a trace shows this operand: its label and shape, e.g. {@code scores_weight [32]}. */
  String operand() {
    return label + " " + shape;
  }

  @Override
  public String name() {
    return name;
  }

  SymbolHandle handle() {
    return handle;
  }

  /** The shape inside a custom layer's trace; null elsewhere. */
  Shape shape() {
    return shape;
  }

  /** The trace that operation {@code op} joins; outside a forward pass, an error saying so. */
  private Trace trace(String op) {
    if (trace == null) {
      throw new IllegalStateException(
          source == null
              ? op
                  + " works only inside a custom @Layer's forward pass, but "
                  + name
                  + " is a "
                  + "parameter or state outside one"
              : source
                  + ": "
                  + op
                  + " works only inside a custom @Layer's forward pass, but "
                  + source.node()
                  + " is the output of this built-in node");
    }
    return trace;
  }

  @Override
  public Sym dot(Sym other) {
    return trace("dot").dot(this, node("dot", other));
  }

  @Override
  public Sym add(Sym other) {
    return trace("add").broadcast("broadcast_add", "add", this, node("add", other));
  }

  @Override
  public Sym sub(Sym other) {
    return trace("sub").broadcast("broadcast_sub", "sub", this, node("sub", other));
  }

  @Override
  public Sym mul(Sym other) {
    return trace("mul").broadcast("broadcast_mul", "mul", this, node("mul", other));
  }

  @Override
  public Sym div(Sym other) {
    return trace("div").broadcast("broadcast_div", "div", this, node("div", other));
  }

  @Override
  public Sym scale(float factor) {
    return trace("scale")
        .unary("_mul_scalar", "scale", this, shape, axes, "scalar", Float.toString(factor));
  }

  @Override
  public Sym activation(Act act) {
    if (act == Act.NONE) {
      return this;
    }
    return trace("activation")
        .unary("Activation", act.mxnetName(), this, shape, axes, "act_type", act.mxnetName());
  }

  @Override
  public Sym exp() {
    return trace("exp").unary("exp", "exp", this, shape, axes);
  }

  @Override
  public Sym transpose() {
    Trace t = trace("transpose");
    int[] d = shape.dims();
    int[] r = new int[d.length];
    for (int i = 0; i < d.length; i++) {
      r[i] = d[d.length - 1 - i];
    }
    List<String> reversed = null;
    if (axes != null) {
      reversed = new ArrayList<>(axes);
      Collections.reverse(reversed);
    }
    return t.unary("transpose", "transpose", this, Shape.of(r), reversed);
  }

  @Override
  public Sym sum(int axis) {
    return trace("sum").sum(this, axis);
  }

  @Override
  public Sym batchDot(Sym other, boolean transposeOther) {
    return trace("batchDot").batchDot(this, node("batchDot", other), transposeOther);
  }

  @Override
  public Sym softmax(int axis) {
    Trace t = trace("softmax");
    t.axis("softmax", this, axis);
    return t.unary("softmax", "softmax", this, shape, axes, "axis", Integer.toString(axis));
  }

  /** {@code other} as an operand of {@code op} in this symbol's trace. */
  private SymNode node(String op, Sym other) {
    if (!(other instanceof SymNode s) || s.trace != trace) {
      throw trace.foreign(op, other.name());
    }
    return s;
  }

  @Override
  public String toString() {
    return "Sym(" + name + (shape == null ? "" : " " + shape) + ")";
  }
}
