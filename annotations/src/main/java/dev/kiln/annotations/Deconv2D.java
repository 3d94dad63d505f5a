package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A 2-D transposed convolution ("deconvolution") over an {@code [N, C, H, W]} input, MXNet's {@code
 * Deconvolution}: the gradient of a convolution, which spreads each input value over a window, so
 * that a stride above 1 enlarges the image. Optionally followed by an activation.
 *
 * <pre>{@code @Deconv2D(filters = 16, kernel = 4, stride = 2, pad = 1) Sym up(Sym x);}</pre>
 *
 * <p>Shape rule (MXNet's {@code DeconvolutionShape}): the output is {@code [N, filters, H', W']}
 * with {@code H' = stride·(H - 1) + dilation·(kernel - 1) + 1 - 2·pad + outputPad}, the same for
 * {@code W'}; {@code outputPad} (MXNet's {@code adj}) must be smaller than the stride, the output
 * must not be empty, and {@code groups} must divide {@code C} and {@code filters}. Window
 * attributes take one value for height and width or two, {@code {height, width}}.
 *
 * <p>Parameters: {@code <node>_weight} of shape {@code [C, filters / groups, kernelH, kernelW]}
 * (MXNet's layout: input channels first) and, unless {@link #noBias()}, {@code <node>_bias} of
 * shape {@code [filters]}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Deconv2D {
  /** Number of output channels (MXNet's {@code num_filter}); must be positive. */
  int filters();

  /** Window size: {@code k} or {@code {kh, kw}}; positive. */
  int[] kernel();

  /** Step between the input's positions in the output: {@code s} or {@code {sh, sw}}; 1. */
  int[] stride() default 1;

  /** Rows and columns cut from each border of the output: {@code p} or {@code {ph, pw}}; 0. */
  int[] pad() default 0;

  /**
   * Rows and columns added at the bottom and right (MXNet's {@code adj}), to reach an exact size:
   * {@code a} or {@code {ah, aw}}; 0 or more, smaller than the stride; 0 by default.
   */
  int[] outputPad() default 0;

  /**
   * Spacing of the kernel's taps: {@code d} or {@code {dh, dw}}; positive; 1 by default. Above 1 it
   * needs more than one filter per group, and MXNet's oneDNN kernels: a model built with {@code
   * MXNET_MKLDNN_ENABLED=0} is refused, since MXNet 1.9.1's own kernel computes dilated transposed
   * convolutions wrongly (apache/mxnet#11203, fixed only after 1.9).
   */
  int[] dilation() default 1;

  /** Channel groups (MXNet's {@code num_group}); must divide the channels and the filters. */
  int groups() default 1;

  /** Activation applied after the layer; {@link Act#NONE} for none. */
  Act activation() default Act.NONE;

  /** Leaves out the bias parameter. */
  boolean noBias() default false;
}
