package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.List;

/**
 * A learned positional embedding ({@code @PositionalEmbedding}): {@code <node>_weight} {@code
 * [steps, width]} added to every example of a sequence {@code [N, steps', width]}, row {@code t} to
 * step {@code t}, over MXNet's {@code broadcast_add}; a sequence of fewer steps ({@code anyLength})
 * takes the first rows ({@code slice_like}). Generated code writes {@code
 * PositionalEmbeddingSpec.steps(16).width(64)}.
 *
 * @param steps the table's rows: the most steps a sequence may have
 * @param width the sequence's width, the table's columns
 * @param sliced whether the sequence may have fewer steps than the table
 */
public record PositionalEmbeddingSpec(int steps, int width, boolean sliced) implements LayerOp {
  /** A table of {@code steps} positions; give its width next. */
  public static PositionalEmbeddingSpec steps(int steps) {
    return new PositionalEmbeddingSpec(steps, 1, false);
  }

  /** This table, {@code width} wide. */
  public PositionalEmbeddingSpec width(int width) {
    return new PositionalEmbeddingSpec(steps, width, sliced);
  }

  /** This table, for sequences of up to {@link #steps()} steps. */
  public PositionalEmbeddingSpec anyLength() {
    return new PositionalEmbeddingSpec(steps, width, true);
  }

  /**
   * The table, reshaped to {@code [1, steps, width]} and sliced to the sequence's steps when {@code
   * sliced} (MXNet fails the pass of a longer sequence, naming the node), added to the input.
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    String n = scope.node();
    Sym table =
        scope.op(
            "Reshape",
            n + "_table",
            Attrs.of("shape", Attrs.tuple(1, steps, width)),
            List.of("data"),
            List.of(scope.param(ParamRole.WEIGHT, Shape.of(steps, width))));
    if (sliced) {
      table =
          scope.op(
              "slice_like",
              n + "_positions",
              Attrs.of("axes", Attrs.tuple(1)),
              List.of("data", "shape_like"),
              List.of(table, x));
    }
    return scope.op("broadcast_add", n, Attrs.of(), List.of("lhs", "rhs"), List.of(x, table));
  }
}
