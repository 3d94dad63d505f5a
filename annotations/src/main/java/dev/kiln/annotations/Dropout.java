package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Dropout, MXNet's {@code Dropout} with {@code p = rate} (and its default {@code mode = training}).
 * In training mode each value is zeroed with probability {@code rate} and the others are scaled by
 * {@code 1 / (1 - rate)}; in inference mode (the default of a model) it is the identity.
 *
 * <pre>{@code @Dropout(rate = 0.5) Sym dropped(Sym hidden);}</pre>
 *
 * <p>Shape rule: the output has the input's shape. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Dropout {
  /** Probability of zeroing a value in training; in {@code [0, 1)}; 0.5 by default (as MXNet). */
  double rate() default 0.5;
}
