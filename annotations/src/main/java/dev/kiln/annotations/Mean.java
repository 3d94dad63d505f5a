package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Mean over some axes of a node, MXNet's {@code mean} ({@code axis}, {@code keepdims}).
 *
 * <pre>{@code @Mean(axes = {2, 3}, keepDims = true) Sym pooled(Sym x); // [N, C, 1, 1]
 * @Mean Sym perExample(Sym errors);                              // [N, T, F] to [N]}</pre>
 *
 * <p>Shape rule (MXNet's {@code ReduceAxesShape}): each of {@code axes} is an axis of the input
 * (negative values count from the end), listed once; each is removed from the shape, or kept with
 * size 1 when {@code keepDims}; when every axis goes the output is {@code [1]}, as MXNet makes it.
 * The batch is never reduced: an axis of size {@code BATCH} in {@code axes} is refused (each
 * example keeps values of its own, and a loss head needs one per example), and empty {@code axes}
 * (the default) means every axis but those of size {@code BATCH}, where MXNet's empty axis would
 * reduce everything. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Mean {
  /** The axes to average over; empty (the default) for every axis but the batch. */
  int[] axes() default {};

  /** Whether reduced axes stay in the shape with size 1; false by default. */
  boolean keepDims() default false;
}
