package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Matrix product of two nodes: MXNet's {@code dot} for two matrices, {@code batch_dot} for two
 * stacks of them (rank 3 or more, one product per leading index). The first parameter is the left
 * factor.
 *
 * <pre>{@code
 * @MatMul(transposeB = true) Sym scores(Sym query, Sym key);   // [N, T, d] by [N, T, d]: [N, T, T]
 * @MatMul Sym mixed(Sym weights, Sym value);                   // [N, T, T] by [N, T, d]: [N, T, d]
 * }</pre>
 *
 * <p>Shape rule (MXNet's {@code DotShape} and {@code BatchDotShape}): both inputs have the same
 * rank, 2 or more; with {@code [.., m, k]} the left matrix after its optional transpose and {@code
 * [.., k', n]} the right one after its own, the inner sizes {@code k} and {@code k'} must be equal
 * and the output is {@code [.., m, n]}; for rank 3 and more the leading axes must be equal (they do
 * not broadcast). An inner size of {@code STEPS} against {@code STEPS} agrees (attention over a
 * sequence of any length); an inner axis of {@code BATCH} is refused, since the product would sum
 * over the examples of a batch. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface MatMul {
  /** Whether to multiply by the transpose of the first input's last two axes; false by default. */
  boolean transposeA() default false;

  /** Whether to multiply by the transpose of the second input's last two axes; false by default. */
  boolean transposeB() default false;
}
