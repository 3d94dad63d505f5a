package dev.kiln.runtime.graph;

import com.sun.jna.Pointer;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;

/**
 * The runtime's {@link Sym}: one MXNet symbol handle made while a graph is built, owned by the
 * {@link GraphBuilder} that made it. Inside a custom layer's forward pass it also knows its shape
 * (with {@code -1} for BATCH) and the layer it belongs to, so that every operation can check its
 * operands before MXNet sees them.
 */
final class SymNode implements Sym {
  private final String name;
  private final Pointer handle;
  private final Shape shape;
  private final GraphBuilder.Trace trace;
  private final String label;

  SymNode(String name, Pointer handle) {
    this(name, handle, null, null);
  }

  SymNode(String name, Pointer handle, Shape shape, GraphBuilder.Trace trace) {
    this(name, handle, shape, trace, name);
  }

  /** A symbol that a trace shows as {@code label} (the input as the node it comes from). */
  SymNode(String name, Pointer handle, Shape shape, GraphBuilder.Trace trace, String label) {
    this.name = name;
    this.handle = handle;
    this.shape = shape;
    this.trace = trace;
    this.label = label;
  }

  /** How a trace shows this operand: its label and shape, e.g. {@code scores_weight [32]}. */
  String operand() {
    return label + " " + shape;
  }

  @Override
  public String name() {
    return name;
  }

  Pointer handle() {
    return handle;
  }

  /** The shape inside a custom layer's trace; null elsewhere. */
  Shape shape() {
    return shape;
  }

  private GraphBuilder.Trace trace() {
    if (trace == null) {
      throw new IllegalStateException("Sym operations are only available inside a custom "
          + "@Layer's forward pass; " + name + " is the output of a built-in node");
    }
    return trace;
  }

  @Override
  public Sym dot(Sym other) {
    return trace().dot(this, node(other));
  }

  @Override
  public Sym add(Sym other) {
    return trace().broadcast("broadcast_add", "add", this, node(other));
  }

  @Override
  public Sym sub(Sym other) {
    return trace().broadcast("broadcast_sub", "sub", this, node(other));
  }

  @Override
  public Sym mul(Sym other) {
    return trace().broadcast("broadcast_mul", "mul", this, node(other));
  }

  @Override
  public Sym div(Sym other) {
    return trace().broadcast("broadcast_div", "div", this, node(other));
  }

  @Override
  public Sym scale(float factor) {
    return trace().unary("_mul_scalar", "scale", this, shape, "scalar", Float.toString(factor));
  }

  @Override
  public Sym activation(Act act) {
    if (act == Act.NONE) {
      return this;
    }
    return trace().unary("Activation", act.mxnetName(), this, shape, "act_type",
        act.mxnetName());
  }

  @Override
  public Sym exp() {
    return trace().unary("exp", "exp", this, shape);
  }

  @Override
  public Sym transpose() {
    int[] d = shape.dims();
    int[] r = new int[d.length];
    for (int i = 0; i < d.length; i++) {
      r[i] = d[d.length - 1 - i];
    }
    return trace().unary("transpose", "transpose", this, Shape.of(r));
  }

  @Override
  public Sym sum(int axis) {
    return trace().sum(this, axis);
  }

  private SymNode node(Sym other) {
    if (!(other instanceof SymNode s) || s.trace != trace) {
      throw new IllegalArgumentException("operand " + other.name() + " does not belong to the "
          + "forward pass being traced");
    }
    return s;
  }

  @Override
  public String toString() {
    return "Sym(" + name + (shape == null ? "" : " " + shape) + ")";
  }
}
