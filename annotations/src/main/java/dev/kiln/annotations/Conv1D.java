package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A 1-D convolution over an {@code [N, C, W]} input (a signal of {@code C} channels and width
 * {@code W}), MXNet's {@code Convolution} with a 1-D kernel, optionally followed by an activation.
 *
 * <pre>{@code @Conv1D(filters = 32, kernel = 5, pad = 2) Sym conv(Sym signal);}</pre>
 *
 * <p>Shape rule (MXNet's {@code ConvolutionShape}): the output is {@code [N, filters, W']} with
 * {@code W' = floor((W + 2·pad - dilation·(kernel - 1) - 1) / stride) + 1}; the dilated kernel must
 * fit in the padded input, {@code C} must be known at compile time, and {@code groups} must divide
 * {@code C} and {@code filters}.
 *
 * <p>Parameters: {@code <node>_weight} of shape {@code [filters, C / groups, kernel]} and, unless
 * {@link #noBias()}, {@code <node>_bias} of shape {@code [filters]}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Conv1D {
  /** Number of output channels (MXNet's {@code num_filter}); must be positive. */
  int filters();

  /** Window width; positive. */
  int kernel();

  /** Step between windows; positive; 1 by default. */
  int stride() default 1;

  /** Zero padding on each side; 0 or more; 0 by default. */
  int pad() default 0;

  /** Spacing of the kernel's taps (MXNet's {@code dilate}); positive; 1 by default. */
  int dilation() default 1;

  /** Channel groups (MXNet's {@code num_group}); must divide the channels and the filters. */
  int groups() default 1;

  /** Activation applied after the convolution; {@link Act#NONE} for none. */
  Act activation() default Act.NONE;

  /** Leaves out the bias parameter. */
  boolean noBias() default false;
}
