package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Permutes the axes of a node, MXNet's {@code transpose}: axis {@code i} of the output is axis
 * {@code axes[i]} of the input.
 *
 * <pre>{@code @Transpose(axes = {0, 2, 1}) Sym timeLast(Sym x);   // [N, T, F] to [N, F, T]}</pre>
 *
 * <p>Shape rule (MXNet's {@code TransposeShape}): {@code axes} lists every axis of the input once
 * (negative values count from the end); none reverses the axes, as MXNet does. The input has rank 1
 * to 6 (MXNet's limit). A {@code BATCH} (or {@code STEPS}) dimension moves with its axis: MXNet
 * allows it, and the layers after it see it where it went. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Transpose {
  /** The input axis each output axis takes, a permutation; empty (the default) reverses them. */
  int[] axes() default {};
}
