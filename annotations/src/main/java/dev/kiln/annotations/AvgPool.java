package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Average pooling over an {@code [N, C, W]} signal (1-D) or an {@code [N, C, H, W]} image (2-D),
 * MXNet's {@code Pooling} with {@code pool_type = avg} and the {@code pooling_convention} {@link
 * #convention()} gives. Padding counts as zeros in the average (MXNet's default {@code
 * count_include_pad = true}): every window divides by its full size.
 *
 * <pre>{@code
 * @AvgPool(kernel = 2) Sym pool(Sym conv);        // [N, C, H, W]: stride 2 halves H and W
 * @AvgPool(kernel = 4) Sym p(Sym x);              // [N, C, W]: along the width
 * }</pre>
 *
 * <p>Shape rule (MXNet's {@code PoolingShape}): the input's rank chooses the pooling, 1-D for rank
 * 3 and 2-D for rank 4 (a window attribute with two values needs rank 4); the output is {@code [N,
 * C, W']} or {@code [N, C, H', W']} with {@code W' = floor((W + 2·pad - kernel) / stride) + 1}
 * under the {@link PoolConvention#VALID} convention and {@code ceil} in place of {@code floor}
 * under {@link PoolConvention#FULL}, and the same for {@code H'}; the kernel must fit in the padded
 * input and {@code pad} must be smaller than the kernel. Under the full convention the last window
 * must still hold an input value, not only padding. No parameters.
 *
 * <p><b>Padding and the full convention:</b> padding counts as zeros, so a window that covers
 * padding divides by its whole size within the padded input; a last window that the full convention
 * lets reach past the padded input divides by the part of it within (MXNet's own kernel; Kiln runs
 * such pools there, see {@code docs/layers.md}).
 *
 * <p><b>Stride default:</b> unlike MXNet's operator, whose stride defaults to 1, an omitted {@code
 * stride} here equals the kernel, so windows do not overlap (as in Gluon, Keras and PyTorch). Kiln
 * always passes the stride to MXNet explicitly.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface AvgPool {
  /** Window size: {@code k} (every spatial dimension) or {@code {kh, kw}}; positive. */
  int[] kernel();

  /**
   * Step between windows: {@code s} or {@code {sh, sw}}; positive; empty (the default) means the
   * kernel.
   */
  int[] stride() default {};

  /** Zero padding on each side: {@code p} or {@code {ph, pw}}; 0 up to kernel - 1; 0 by default. */
  int[] pad() default 0;

  /**
   * How the windows along each dimension are counted: {@link PoolConvention#VALID} (the default) or
   * {@link PoolConvention#FULL}, MXNet's {@code pooling_convention}.
   */
  PoolConvention convention() default PoolConvention.VALID;
}
