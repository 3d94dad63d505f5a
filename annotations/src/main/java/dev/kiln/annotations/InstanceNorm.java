package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Instance normalisation, MXNet's {@code InstanceNorm} ({@code eps}): every channel of every
 * example is normalised to mean 0 and variance 1 over its spatial axes with its own statistics,
 * then scaled by gamma and shifted by beta per channel. It behaves the same in training and
 * inference.
 *
 * <pre>{@code @InstanceNorm Sym norm(Sym features);   // [N, C, H, W]}</pre>
 *
 * <p>Shape rule (MXNet's {@code InstanceNormShape}): rank 3 or more, {@code [N, C, ...]}; the
 * output has the input's shape; the channels {@code C} must be known at compile time. Parameters
 * {@code <node>_gamma} (starts at 1) and {@code <node>_beta} (starts at 0), shape {@code [C]}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface InstanceNorm {
  /** Added to the variance before the square root; positive; 1e-5 by default (as ONNX). */
  double eps() default 1e-5;
}
