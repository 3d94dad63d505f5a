package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Local response normalisation across channels (AlexNet's), MXNet's {@code LRN}: each value of an
 * {@code [N, C, H, W]} input is divided by {@code (k + alpha / size · Σ x²)^beta}, the sum running
 * over the squares of the {@code size} channels centred on its own at the same position (those that
 * exist: the window is cut at the first and last channel, and still divided by {@code size}). MXNet
 * divides {@code alpha} by {@code size}, as Caffe and oneDNN do (PyTorch too; not TensorFlow, whose
 * {@code alpha} is used as written).
 *
 * <pre>{@code @Lrn(size = 5) Sym norm(Sym conv);   // AlexNet: alpha 1e-4, beta 0.75, k 2}</pre>
 *
 * <p>Shape rule: the input has rank 4, {@code [N, C, H, W]} (MXNet 1.9.1 computes {@code LRN} on
 * rank 4 alone without oneDNN), and the output has its shape; {@code size} must be odd and, where
 * {@code C} is known, at most {@code C} (MXNet's own kernel refuses a larger window). No
 * parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Lrn {
  /** Channels in each window (MXNet's {@code nsize}); odd and positive, at most the channels. */
  int size();

  /** The scale of the sum of squares, before MXNet divides it by {@code size}; 0 or more. */
  double alpha() default 1e-4;

  /** The exponent; finite. */
  double beta() default 0.75;

  /** Added to the scaled sum (MXNet's {@code knorm}); positive. */
  double k() default 2;
}
