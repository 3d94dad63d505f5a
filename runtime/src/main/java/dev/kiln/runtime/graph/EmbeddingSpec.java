package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.List;

/**
 * The table of an embedding ({@code @Embedding}), as generated code passes it to {@link
 * GraphBuilder#node}: {@code EmbeddingSpec.rows(50).columns(8)}.
 *
 * @param inputDim rows: the number of distinct indices
 * @param outputDim columns: the size of each vector
 */
public record EmbeddingSpec(int inputDim, int outputDim) implements LayerOp {
  /** A table of {@code inputDim} rows; give its columns next. */
  public static EmbeddingSpec rows(int inputDim) {
    return new EmbeddingSpec(inputDim, 1);
  }

  /** This table with vectors of {@code outputDim} values. */
  public EmbeddingSpec columns(int outputDim) {
    return new EmbeddingSpec(inputDim, outputDim);
  }

  /**
   * MXNet's {@code Embedding}: each value of the input is a row index into {@code <node>_weight}
   * {@code [inputDim, outputDim]}; the indices pass a {@code BlockGrad}, since no gradient flows
   * into an index.
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym indices =
        scope.op(
            "BlockGrad",
            scope.node() + "_indices",
            Attrs.of(),
            List.of("data"),
            inputs.subList(0, 1));
    return scope.op(
        "Embedding",
        scope.node(),
        Attrs.of("input_dim", inputDim, "output_dim", outputDim),
        List.of("data", "weight"),
        List.of(indices, scope.param(ParamRole.WEIGHT)));
  }
}
