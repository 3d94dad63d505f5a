package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Multi-head scaled dot-product attention: each of {@code heads} heads projects the query to {@code
 * q = x·Wqᵀ + bq} ({@code keyDim} wide), the keys and values likewise, weighs the value of every
 * key step by {@code softmax(q·kᵀ / sqrt(keyDim))} over the key steps, and the heads' results side
 * by side are projected back to the query's width.
 *
 * <p>The node's parameters say what it attends to:
 *
 * <pre>{@code
 * @MultiHeadAttention(heads = 4) Sym mixed(Sym tokens);              // self-attention
 * @MultiHeadAttention(heads = 4) Sym mixed(Sym tokens, Sym lengths); // masked by valid lengths
 * @MultiHeadAttention(heads = 4) Sym read(Sym query, Sym key, Sym value);          // cross
 * @MultiHeadAttention(heads = 4)
 * Sym read(Sym query, @From("memory") Sym key, @From("memory") Sym value, Sym lengths);
 * }</pre>
 *
 * <p>The query is {@code [N, steps, width]}, the key and the value {@code [N, keySteps, kvWidth]}
 * (one shape for both; the same node twice when they are one), and the optional last input {@code
 * [N]} holds each example's number of valid key steps: key steps at or after it get weight 0, so
 * padding never matters. With {@link #causal()} query step {@code t} sees key steps {@code 0} to
 * {@code t} only, which needs as many key steps as query steps. The output is {@code [N, steps,
 * width]}.
 *
 * <p>Parameters: {@code <node>_query_weight} {@code [heads·keyDim, width]}, {@code
 * <node>_key_weight} {@code [heads·keyDim, kvWidth]}, {@code <node>_value_weight} {@code
 * [heads·valueDim, kvWidth]}, {@code <node>_output_weight} {@code [width, heads·valueDim]} and,
 * unless {@link #noBias()}, {@code <node>_query_bias}, {@code <node>_key_bias}, {@code
 * <node>_value_bias}, {@code <node>_output_bias}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface MultiHeadAttention {
  /** Number of heads; must be positive, and divide the query's width unless {@link #keyDim()}. */
  int heads();

  /** Each head's query and key size; 0 (the default) for the query's width divided by heads. */
  int keyDim() default 0;

  /** Each head's value size; 0 (the default) for {@link #keyDim()}'s. */
  int valueDim() default 0;

  /** Probability of dropping an attention weight in training; in {@code [0, 1)}. */
  double dropout() default 0;

  /** Whether each query step sees only the key steps up to its own (a decoder's attention). */
  boolean causal() default false;

  /** Leaves out the four projections' biases. */
  boolean noBias() default false;
}
