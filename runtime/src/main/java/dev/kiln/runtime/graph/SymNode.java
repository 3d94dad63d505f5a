package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.mxnet.SymbolHandle;

/**
 * The runtime's {@link Sym} while a graph is built: one MXNet symbol handle, owned by the {@link
 * GraphBuilder} that made it (through its {@link SymbolArena}), and the built-in node that made it,
 * if one did.
 *
 * <p>Such a symbol has no operations: {@link Sym}'s operations work only inside a custom layer's
 * forward pass, where every symbol is a traced one (a subclass in {@code
 * dev.kiln.runtime.graph.trace} that knows its shape), and here each of them says so.
 */
public class SymNode implements Sym {
  private final String name;
  private final SymbolHandle handle;
  private final NodeSource source;

  /** Symbol {@code name} over {@code handle}, made by built-in node {@code source} (or null). */
  SymNode(String name, SymbolHandle handle, NodeSource source) {
    this.name = name;
    this.handle = handle;
    this.source = source;
  }

  /**
   * A symbol over the same handle, with the same name, as {@code of}, made by no built-in node: for
   * a subclass that gives it operations.
   */
  protected SymNode(SymNode of) {
    this(of.name, of.handle, null);
  }

  @Override
  public String name() {
    return name;
  }

  /** The symbol handle; the builder's arena owns it. */
  SymbolHandle handle() {
    return handle;
  }

  /**
   * The built-in node whose output this is (or the input it is), or null for a parameter, a state,
   * one output of a multi-output operator, or a traced value.
   */
  public NodeSource source() {
    return source;
  }

  /**
   * The error for operation {@code op} on this symbol outside a custom layer's forward pass: it
   * names the built-in node whose output this is, or says that this is a parameter or state.
   */
  protected final IllegalStateException outsideTrace(String op) {
    return new IllegalStateException(
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

  @Override
  public Sym dot(Sym other) {
    throw outsideTrace("dot");
  }

  @Override
  public Sym add(Sym other) {
    throw outsideTrace("add");
  }

  @Override
  public Sym sub(Sym other) {
    throw outsideTrace("sub");
  }

  @Override
  public Sym mul(Sym other) {
    throw outsideTrace("mul");
  }

  @Override
  public Sym div(Sym other) {
    throw outsideTrace("div");
  }

  @Override
  public Sym scale(float factor) {
    throw outsideTrace("scale");
  }

  /** Itself for {@link Act#NONE}, which computes nothing; otherwise an error. */
  @Override
  public Sym activation(Act act) {
    if (act == Act.NONE) {
      return this;
    }
    throw outsideTrace("activation");
  }

  @Override
  public Sym exp() {
    throw outsideTrace("exp");
  }

  @Override
  public Sym transpose() {
    throw outsideTrace("transpose");
  }

  @Override
  public Sym sum(int axis) {
    throw outsideTrace("sum");
  }

  @Override
  public Sym batchDot(Sym other, boolean transposeOther) {
    throw outsideTrace("batchDot");
  }

  @Override
  public Sym softmax(int axis) {
    throw outsideTrace("softmax");
  }

  @Override
  public Sym reshape(int... shape) {
    throw outsideTrace("reshape");
  }

  @Override
  public String toString() {
    return "Sym(" + name + ")";
  }
}
