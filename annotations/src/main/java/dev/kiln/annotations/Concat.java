package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Joins two or more nodes along one axis, MXNet's {@code Concat}. All other dimensions must be
 * equal; the output's size along {@code axis} is the sum of the inputs' sizes.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Concat {
  /** The axis to join along; negative values count from the end. */
  int axis() default 1;
}
