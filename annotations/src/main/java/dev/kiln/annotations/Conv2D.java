package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A 2-D convolution over an {@code [N, C, H, W]} input, MXNet's {@code Convolution} ({@code
 * num_filter}, {@code kernel}, {@code stride}, {@code pad}, {@code dilate}, {@code no_bias}),
 * optionally followed by an {@code Activation}.
 *
 * <pre>{@code @Conv2D(filters = 32, kernel = 3, pad = 1) Sym conv(Sym x);}</pre>
 *
 * <p>{@code kernel}, {@code stride}, {@code pad} and {@code dilation} each take one value, used for
 * both height and width ({@code kernel = 3}), or two, {@code {height, width}} ({@code kernel = {3,
 * 5}}).
 *
 * <p>Shape rule (MXNet's {@code ConvolutionShape}): the output is {@code [N, filters, H', W']} with
 * {@code H' = floor((H + 2·pad - dilation·(kernel - 1) - 1) / stride) + 1}, and the same for {@code
 * W'}. The dilated kernel must fit in the padded input, and {@code C} must be known at compile
 * time; {@code N}, {@code H} and {@code W} may be {@link Dim#BATCH}.
 *
 * <p>Parameters: {@code <node>_weight} of shape {@code [filters, C / groups, kernelH, kernelW]}
 * and, unless {@link #noBias()}, {@code <node>_bias} of shape {@code [filters]}.
 *
 * <p>With {@link #groups()} above 1 the channels are split into that many groups, each convolved by
 * its own filters ({@code num_group}; {@code groups = C = filters} is a depthwise convolution):
 * groups must divide both {@code C} and {@code filters}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Conv2D {
  /** Number of output channels (MXNet's {@code num_filter}); must be positive. */
  int filters();

  /** Window size: {@code k} or {@code {kh, kw}}; positive. */
  int[] kernel();

  /** Step between windows: {@code s} or {@code {sh, sw}}; positive; 1 by default (as MXNet). */
  int[] stride() default 1;

  /** Zero padding on each side: {@code p} or {@code {ph, pw}}; 0 or more; 0 by default. */
  int[] pad() default 0;

  /**
   * Spacing of the kernel's taps (MXNet's {@code dilate}): {@code d} or {@code {dh, dw}}; positive;
   * 1 by default.
   */
  int[] dilation() default 1;

  /**
   * Channel groups (MXNet's {@code num_group}): 1 (every filter sees every channel) by default;
   * must divide the input channels and the filters.
   */
  int groups() default 1;

  /** Activation applied after the convolution; {@link Act#NONE} for none. */
  Act activation() default Act.NONE;

  /** Leaves out the bias parameter. */
  boolean noBias() default false;
}
