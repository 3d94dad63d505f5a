package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits every value of a node to {@code [min, max]}, MXNet's {@code clip} ({@code a_min}, {@code
 * a_max}).
 *
 * <pre>{@code @Clip(min = -1, max = 1) Sym bounded(Sym x);}</pre>
 *
 * <p>Shape rule: the output has the input's shape. {@code min <= max}, both finite numbers; MXNet
 * holds them as float32. The gradient is the output gradient where {@code min <= x <= max} and zero
 * outside (MXNet's rule). No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Clip {
  /** The least value kept; values below it become {@code min}. */
  double min();

  /** The greatest value kept; values above it become {@code max}; at least {@code min}. */
  double max();
}
