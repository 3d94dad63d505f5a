package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A lookup table, MXNet's {@code Embedding} ({@code input_dim}, {@code output_dim}): every value of
 * the input is an index in {@code [0, inputDim)} (whole numbers held in float32; MXNet clips
 * indices outside the range) and is replaced by that row of the weight.
 *
 * <pre>{@code @Embedding(inputDim = 1000, outputDim = 16) Sym vectors(Sym tokens);}</pre>
 *
 * <p>turns token indices {@code [N, T]} into vectors {@code [N, T, 16]}.
 *
 * <p>Shape rule (MXNet's {@code EmbeddingOpShape}): an input of any shape {@code [d...]} gives
 * {@code [d..., outputDim]}. Parameter {@code <node>_weight} of shape {@code [inputDim,
 * outputDim]}. The indices have no gradient.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Embedding {
  /** Number of rows (the vocabulary size); must be positive. */
  int inputDim();

  /** Length of each vector; must be positive. */
  int outputDim();
}
