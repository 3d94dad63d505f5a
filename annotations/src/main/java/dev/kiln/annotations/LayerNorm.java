package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Layer normalisation along one axis, MXNet's {@code LayerNorm} ({@code axis}, {@code eps}): every
 * slice along {@code axis} is normalised to mean 0 and variance 1 with its own statistics, then
 * scaled by gamma and shifted by beta. It behaves the same in training and inference.
 *
 * <pre>{@code @LayerNorm Sym norm(Sym hidden);   // over the last axis}</pre>
 *
 * <p>Shape rule (MXNet's {@code LayerNormShape}): the output has the input's shape; the size {@code
 * C} of {@code axis} must be known at compile time. Parameters {@code <node>_gamma} (starts at 1)
 * and {@code <node>_beta} (starts at 0), shape {@code [C]}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface LayerNorm {
  /** The axis to normalise over; negative values count from the end; -1 by default. */
  int axis() default -1;

  /** Added to the variance before the square root; positive; 1e-5 by default (as MXNet). */
  double eps() default 1e-5;
}
