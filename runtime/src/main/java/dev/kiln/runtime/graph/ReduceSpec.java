package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.Arrays;
import java.util.List;

/**
 * A mean or sum over some axes ({@code @Mean}, {@code @Sum}): MXNet's {@code mean} or {@code sum}
 * with {@code axis} and {@code keepdims}. The processor writes the axes it reduces explicitly
 * (never MXNet's empty axis, which would reduce the batch too). Generated code writes {@code
 * ReduceSpec.mean(1, 2).keepDims()}.
 *
 * @param op {@code mean} or {@code sum}
 * @param axes the axes reduced, non-negative
 * @param keptDims whether they stay in the shape with size 1
 */
public record ReduceSpec(String op, List<Integer> axes, boolean keptDims) implements LayerOp {
  /** Copies the axes. */
  public ReduceSpec {
    axes = List.copyOf(axes);
  }

  /** The mean over {@code axes}. */
  public static ReduceSpec mean(int... axes) {
    return new ReduceSpec("mean", Arrays.stream(axes).boxed().toList(), false);
  }

  /** The sum over {@code axes}. */
  public static ReduceSpec sum(int... axes) {
    return new ReduceSpec("sum", Arrays.stream(axes).boxed().toList(), false);
  }

  /** This reduction with the reduced axes kept, of size 1. */
  public ReduceSpec keepDims() {
    return new ReduceSpec(op, axes, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    int[] a = axes.stream().mapToInt(Integer::intValue).toArray();
    return scope.op(op, Attrs.of("axis", Attrs.tuple(a), "keepdims", keptDims), inputs.get(0));
  }
}
