package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * An element-wise sum of equal shapes ({@code @Add}): MXNet's {@code elemwise_add} for two inputs,
 * {@code add_n} for more. Generated code writes {@code AddSpec.of()}.
 */
public record AddSpec() implements LayerOp {
  /** The sum. */
  public static AddSpec of() {
    return new AddSpec();
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
    if (inputs.size() == 2) {
      return scope.op("elemwise_add", scope.node(), Attrs.of(), List.of("lhs", "rhs"), inputs);
    }
    return scope.op("add_n", scope.node(), Attrs.of("num_args", inputs.size()), null, inputs);
  }
}
