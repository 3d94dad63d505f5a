package dev.kiln.runtime.graph;

/**
 * The table of an embedding ({@code @Embedding}), as generated code passes it to {@link
 * GraphBuilder#embedding}: {@code EmbeddingSpec.rows(50).columns(8)}.
 *
 * @param inputDim rows: the number of distinct indices
 * @param outputDim columns: the size of each vector
 */
public record EmbeddingSpec(int inputDim, int outputDim) {
  /** A table of {@code inputDim} rows; give its columns next. */
  public static EmbeddingSpec rows(int inputDim) {
    return new EmbeddingSpec(inputDim, 1);
  }

  /** This table with vectors of {@code outputDim} values. */
  public EmbeddingSpec columns(int outputDim) {
    return new EmbeddingSpec(inputDim, outputDim);
  }
}
