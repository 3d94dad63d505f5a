package dev.kiln.ops.emit;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.names.AuxRole;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * What one node's {@link dev.kiln.ops.LayerOp} sees while it emits the node: where the node was
 * declared, its parameters and auxiliary states by role, the MXNet operators it makes (named after
 * the node) and the checks it leaves for build time. Only the runtime's graph builder makes one,
 * for the duration of one node's {@code build}.
 */
public interface NodeScope {
  /** Where the node was declared. */
  NodeSource source();

  /** The node's name, which its main operator takes. */
  default String node() {
    return source().node();
  }

  /**
   * Whether the graph is built for training against labels: a classifier's softmax is then MXNet's
   * {@code SoftmaxOutput}, a loss head its training loss.
   */
  boolean training();

  /** The node's learnable parameter {@code <node>_<role>}, initialised as its role says. */
  Sym param(ParamRole role);

  /**
   * The node's learnable parameter {@code <node>_<role>} of shape {@code shape}, for a parameter
   * that MXNet's shape inference cannot reach (one that passes a reshape before its operator).
   */
  Sym param(ParamRole role, TShape shape);

  /** The node's auxiliary state {@code <node>_<role>}. */
  Sym aux(AuxRole role);

  /**
   * MXNet operator {@code op} named {@code name} with {@code attrs}, composed over {@code args} by
   * keyword when {@code keys} is given, else by position.
   */
  Sym op(String op, String name, Attrs attrs, List<String> keys, List<Sym> args);

  /** MXNet operator {@code op} named after the node, over one input {@code data}. */
  default Sym op(String op, Attrs attrs, Sym data) {
    return op(op, node(), attrs, List.of("data"), List.of(data));
  }

  /** {@code Activation} of {@code x}, named {@code <node>_<act>}, unless {@code Act.NONE}. */
  Sym activate(Sym x, Act activation);

  /**
   * Output {@code index} of the multi-output symbol {@code s} (such as {@code RNN}'s), as a symbol
   * of its own.
   */
  Sym output(Sym s, int index);

  /**
   * Checks at build time that {@code axis} is within the rank of what {@code xs} compute, for
   * operator {@code op}; {@code head} when the node is a classifier's head.
   */
  void checkAxis(String op, List<Sym> xs, int axis, boolean head);

  /** The label variable {@code <node>_label} of a classifier head, registered as the graph's. */
  Sym label();

  /** Checks before every bind that the reshape from {@code in} to {@code out} keeps its values. */
  void checkReshape(Sym in, Sym out);

  /**
   * An error naming this node, {@code <source>: why}, for the layer to throw when the node cannot
   * be built as asked (the runtime makes it the exception it reports graph errors with).
   */
  RuntimeException refuse(String why);

  /** The builder's recurrent bookkeeping, for fused recurrent layers. */
  RecurrentScope recurrent();
}
