package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * A new shape for the same values ({@code @Reshape}): MXNet's {@code Reshape}, whose target may
 * hold MXNet's special values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split
 * in two). MXNet 1.9.1 does not check that a reshape keeps the number of values; the graph checks
 * it before every bind. Generated code writes {@code ReshapeSpec.of(BATCH, 1, 28, 28)}.
 *
 * @param shape the target
 */
public record ReshapeSpec(List<Integer> shape) implements LayerOp {
  /** Copies the target. */
  public ReshapeSpec {
    shape = List.copyOf(shape);
  }

  /** The target {@code shape}. */
  public static ReshapeSpec of(int... shape) {
    return new ReshapeSpec(java.util.Arrays.stream(shape).boxed().toList());
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    int[] target = shape.stream().mapToInt(Integer::intValue).toArray();
    Sym out = scope.op("Reshape", Attrs.of("shape", Attrs.tuple(target)), x);
    scope.checkReshape(x, out);
    return out;
  }
}
