package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * Collapses every dimension after the first ({@code @Flatten}): MXNet's {@code Flatten}. Generated
 * code writes {@code FlattenSpec.of()}.
 */
public record FlattenSpec() implements LayerOp {
  /** The flattening. */
  public static FlattenSpec of() {
    return new FlattenSpec();
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op("Flatten", Attrs.of(), inputs.get(0));
  }
}
