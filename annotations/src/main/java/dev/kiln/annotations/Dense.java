package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A fully connected layer, MXNet's {@code FullyConnected}: {@code y = x·Wᵀ + b}, optionally
 * followed by an activation.
 *
 * <p>Like MXNet, it flattens every dimension after the first by default: an input of shape {@code
 * [N, a, b]} is treated as {@code [N, a·b]} and the output is {@code [N, units]}. With {@code
 * flatten = false} it acts on the last dimension only and keeps the others.
 *
 * <p>Parameters: {@code <node>_weight} of shape {@code [units, in]} and, unless {@link #noBias()},
 * {@code <node>_bias} of shape {@code [units]}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Dense {
  /** Number of output units; must be positive. */
  int units();

  /** Activation applied after the affine map; {@link Act#NONE} for none. */
  Act activation() default Act.NONE;

  /** Leaves out the bias parameter. */
  boolean noBias() default false;

  /** Flattens all dimensions after the first (MXNet's default), or acts on the last only. */
  boolean flatten() default true;
}
