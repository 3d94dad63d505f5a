package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Softmax along one axis, MXNet's {@code softmax}; the output has the input's shape. When it is a
 * classifier's last node, training replaces it with MXNet's {@code SoftmaxOutput} (softmax with
 * cross-entropy loss against a label input).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Softmax {
  /** The axis to normalise over; negative values count from the end. */
  int axis() default -1;
}
