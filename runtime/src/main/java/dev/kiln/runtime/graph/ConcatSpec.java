package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * Concatenation along {@code axis} ({@code @Concat}): MXNet's {@code Concat}. Generated code writes
 * {@code ConcatSpec.axis(1)}.
 *
 * @param axis the axis along which the inputs are joined
 */
public record ConcatSpec(int axis) implements LayerOp {
  /** Joins along {@code axis}. */
  public static ConcatSpec axis(int axis) {
    return new ConcatSpec(axis);
  }

  @Override
  public int arity() {
    return 2;
  }

  @Override
  public boolean variadic() {
    return true;
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    scope.checkAxis("concat", inputs, axis, false);
    return scope.op(
        "Concat", scope.node(), Attrs.of("num_args", inputs.size(), "dim", axis), null, inputs);
  }
}
