package dev.kiln.runtime.graph.trace;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.graph.SymNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A symbol inside a custom layer's forward pass: the builder's symbol it stands for, with its shape
 * (with {@code -1} for BATCH) and the trace it belongs to, so that every operation can check its
 * operands before MXNet sees them, and, where the layer's declarations name them, the dimension
 * names of its axes (the input's and parameters' shape patterns, carried through every operation).
 * A custom layer's parameter is one before its trace starts (a null trace): it has its shape and
 * axis names, and no operations yet.
 */
final class TracedSym extends SymNode {
  private final Shape shape;
  private final Trace trace;
  private final String label;
  private final List<String> axes;

  /**
   * {@code of} as a value of {@code trace} (null for a parameter before one) of shape {@code
   * shape}, shown in the trace as {@code label} (the input as the node it comes from), its axes
   * named {@code axes}, one per dimension of {@code shape}: a dimension name of the layer, or null
   * for an axis with none (a number in the pattern); a null list when no axis is named.
   */
  TracedSym(SymNode of, Shape shape, Trace trace, String label, List<String> axes) {
    super(of);
    this.shape = shape;
    this.trace = trace;
    this.label = label;
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

  /** The shape inside the trace. */
  Shape shape() {
    return shape;
  }

  /** The trace that operation {@code op} joins; outside a forward pass, an error saying so. */
  private Trace trace(String op) {
    if (trace == null) {
      throw outsideTrace(op);
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

  @Override
  public Sym reshape(int... shape) {
    return trace("reshape").reshape(this, shape.clone());
  }

  /** {@code other} as an operand of {@code op} in this symbol's trace. */
  private TracedSym node(String op, Sym other) {
    if (!(other instanceof TracedSym s) || s.trace != trace) {
      throw trace.foreign(op, other.name());
    }
    return s;
  }

  @Override
  public String toString() {
    return "Sym(" + name() + (shape == null ? "" : " " + shape) + ")";
  }
}
