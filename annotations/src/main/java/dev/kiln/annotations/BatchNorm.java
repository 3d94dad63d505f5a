package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Batch normalisation along one (channel) axis, MXNet's {@code BatchNorm} ({@code eps}, {@code
 * momentum}, {@code axis}, and always {@code fix_gamma = False}: MXNet's own default, {@code True},
 * would silently keep gamma at 1).
 *
 * <pre>{@code @BatchNorm Sym bn(Sym conv);   // per channel of [N, C, H, W]}</pre>
 *
 * <p>In training mode each channel is normalised with the batch's mean and (biased) variance, and
 * the moving averages are updated, {@code moving = momentum·moving + (1 - momentum)·batch}, by the
 * training step's backward pass (MXNet 1.9.1 updates them in {@code BatchNorm}'s backward, so a
 * training-mode forward alone leaves them unchanged). In inference mode (a model's default) the
 * moving averages are used instead.
 *
 * <p>Shape rule (MXNet's {@code BatchNormShape}): the output has the input's shape; the size {@code
 * C} of {@code axis} must be known at compile time. Parameters {@code <node>_gamma} (starts at 1)
 * and {@code <node>_beta} (starts at 0), shape {@code [C]}; auxiliary states {@code
 * <node>_moving_mean} (starts at 0) and {@code <node>_moving_var} (starts at 1), shape {@code [C]},
 * which are not trained by the optimizer but saved with the model.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface BatchNorm {
  /** Added to the variance before the square root; positive; 1e-3 by default (as MXNet). */
  double eps() default 1e-3;

  /** Weight of the old value in the moving averages; in {@code [0, 1]}; 0.9 by default. */
  double momentum() default 0.9;

  /** The channel axis; negative values count from the end; 1 by default (NCHW). */
  int axis() default 1;
}
