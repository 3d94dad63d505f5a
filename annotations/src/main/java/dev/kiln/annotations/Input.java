package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares an input of the model, fed by the caller on every forward pass.
 *
 * <pre>{@code @Input(shape = {BATCH, 784}) Sym pixels();}</pre>
 *
 * <p>Every dimension is positive or {@link Dim#BATCH}, which is fixed only when an executor is
 * bound (the batch size, a sequence length).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Input {
  /**
   * The input's shape; {@link Dim#BATCH} marks a dimension fixed at bind time. Required: the
   * processor reports an input without one (the empty default exists only so that it can say so in
   * its own words).
   */
  int[] shape() default {};
}
