package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.Arrays;
import java.util.List;

/**
 * A permutation of the axes ({@code @Transpose}): MXNet's {@code transpose}. The processor writes
 * the permutation with non-negative axes, since MXNet 1.9.1 reads no negative ones; none reverses
 * the axes. Generated code writes {@code TransposeSpec.axes(0, 2, 1)} or {@code
 * TransposeSpec.reverse()}.
 *
 * @param axes the input axis each output axis takes; empty to reverse them
 */
public record TransposeSpec(List<Integer> axes) implements LayerOp {
  /** Copies the axes. */
  public TransposeSpec {
    axes = List.copyOf(axes);
  }

  /** The permutation {@code axes}. */
  public static TransposeSpec axes(int... axes) {
    return new TransposeSpec(Arrays.stream(axes).boxed().toList());
  }

  /** The axes in reverse order, MXNet's default. */
  public static TransposeSpec reverse() {
    return new TransposeSpec(List.of());
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (axes.isEmpty()) {
      return scope.op("transpose", Attrs.of(), inputs.get(0));
    }
    int[] a = axes.stream().mapToInt(Integer::intValue).toArray();
    return scope.op("transpose", Attrs.of("axes", Attrs.tuple(a)), inputs.get(0));
  }
}
