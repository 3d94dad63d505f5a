package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * An element-wise operation on two inputs that broadcasts ({@code @Multiply}, {@code @Subtract},
 * {@code @Divide}, {@code @Maximum}): MXNet's {@code broadcast_mul}, {@code broadcast_sub}, {@code
 * broadcast_div} or {@code broadcast_maximum}, the first input on the left. The processor has
 * checked the shapes (equal rank, sizes equal or 1). Generated code writes {@code
 * BroadcastSpec.multiply()}.
 *
 * @param op the MXNet operator
 */
public record BroadcastSpec(String op) implements LayerOp {
  /** The product. */
  public static BroadcastSpec multiply() {
    return new BroadcastSpec("broadcast_mul");
  }

  /** The first input minus the second. */
  public static BroadcastSpec subtract() {
    return new BroadcastSpec("broadcast_sub");
  }

  /** The first input divided by the second. */
  public static BroadcastSpec divide() {
    return new BroadcastSpec("broadcast_div");
  }

  /** The larger of the two. */
  public static BroadcastSpec maximum() {
    return new BroadcastSpec("broadcast_maximum");
  }

  @Override
  public int arity() {
    return 2;
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(op, scope.node(), Attrs.of(), List.of("lhs", "rhs"), inputs);
  }
}
