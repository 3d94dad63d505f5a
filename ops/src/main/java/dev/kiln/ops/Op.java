package dev.kiln.ops;

import dev.kiln.names.StateRole;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one node computes: a built-in operator (one class per layer annotation, in {@code
 * dev.kiln.processor.op}, read by its {@code OpReader}) or a custom layer. Every phase asks the op
 * itself: the reader its attribute checks, the checker its shape rule and cost, the writers the
 * call it emits. The phases never test which op a node has; what only some ops can do is a
 * capability below, with a default for the rest. An op that leaves out a phase does not compile.
 */
public interface Op {
  /** The annotation's simple name, e.g. {@code Dense}. */
  String annotation();

  /** The MXNet operator the node emits, for tables, e.g. {@code FullyConnected}. */
  String mxnetOp();

  /** How many inputs the op takes: the exact count, or the minimum when {@link #variadic()}. */
  int arity();

  /** Whether {@link #arity()} is a minimum. */
  default boolean variadic() {
    return false;
  }

  /**
   * Checks the attribute values that need no shapes (counts, ranges, window lengths).
   *
   * @throws dev.kiln.ops.rule.RuleError naming the first bad attribute
   */
  void checkAttributes(AttributeSite site);

  /**
   * The shape rule: the output shape, parameters and auxiliary states for the inputs at {@code
   * site}, equal to MXNet's own for the operator the node emits.
   *
   * @throws dev.kiln.ops.rule.RuleError when the inputs break the rule
   */
  Inferred infer(ShapeSite site);

  /**
   * Forward floating point operations per example (every {@code BATCH} dimension counted as 1, a
   * multiply-add as 2) from inputs {@code in} to {@code out}; -1 when unknown.
   */
  long flops(List<TShape> in, TShape out);

  /** The call of the runtime's graph builder that emits the node, as data for the writers. */
  NodeCall call(CallSite site);

  /**
   * Whether this op's rules work on sizes written in free dimensions ({@link
   * dev.kiln.ops.rule.SizeExpr}): they read such a size with {@code TShape.size(i)}, never as an
   * int, compare with {@code ShapeSite.sameFree} and record what they need with {@code
   * ShapeSite.require}. The checker refuses a node whose op does not while its input has one.
   */
  default boolean takesFreeDims() {
    return false;
  }

  /** Whether the node is one of the model's inputs. */
  default boolean isInput() {
    return false;
  }

  /**
   * Which loss head the op is ({@code @L2Loss}, ...): such a node must be the model's only output,
   * and gives the model a trainer.
   */
  default Optional<LossOp.Kind> lossHead() {
    return Optional.empty();
  }

  /**
   * The axis a softmax normalises over, when the op is one: such a node can be a classifier's head.
   */
  default OptionalInt softmaxAxis() {
    return OptionalInt.empty();
  }

  /**
   * The states the node carries from one {@code forward} call into the next (a stateful recurrent
   * layer), in the order the runtime keeps them; none for most ops.
   */
  default List<StateRole> carriedStates() {
    return List.of();
  }

  /**
   * Whether the node's one parameter is a fused recurrent vector that the model also shows gate by
   * gate ({@code params().<node>Gates()}).
   */
  default boolean hasGateViews() {
    return false;
  }

  /**
   * A custom layer's forward body, traced when the graph is built (and, where the compiler shows
   * the processor its source, at compile time too): the node's output shape is the layer's declared
   * contract.
   */
  default Optional<TracedBody> tracedBody() {
    return Optional.empty();
  }

  /** Whether the node's body is only known when the graph is built ({@link #tracedBody()}). */
  default boolean tracedAtBuild() {
    return tracedBody().isPresent();
  }

  /** Whether the node is a recurrent cell unrolled over the steps of its input sequence. */
  default boolean isCell() {
    return tracedBody().map(TracedBody::cell).orElse(false);
  }

  /**
   * A custom layer's forward body, for the note that says what the compiler could not check.
   *
   * @param layer the layer annotation's simple name, e.g. {@code Affine}
   * @param forward the forward method as source names it, e.g. {@code Affine.Forward.apply}
   * @param cell whether it is a recurrent cell's step
   * @param unchecked why the compiler could not trace the body, so that only the graph build checks
   *     it; null when the processor traced it at compile time
   */
  record TracedBody(String layer, String forward, boolean cell, String unchecked) {}
}
