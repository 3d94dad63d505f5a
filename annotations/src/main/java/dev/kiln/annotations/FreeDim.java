package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a free dimension of a model: a size, such as an image's height or a second sequence's
 * length, that is fixed only when an executor is bound, like {@link Dim#BATCH}, but that the
 * compiler follows by name through every layer. The constant's name is the dimension's name; its
 * value is a placeholder from {@code -10} down to {@code -999}, distinct within the model, that
 * stands for the dimension wherever an annotation takes a size:
 *
 * <pre>{@code
 * @Model
 * public interface Pnet {
 *   @FreeDim(min = 12) int H = -10;
 *   @FreeDim(min = 12) int W = -11;
 *
 *   @Input(shape = {BATCH, 3, H, W}) Sym image();
 *   ...
 * }
 * }</pre>
 *
 * <p>The processor computes every node's shape as an expression in the dimensions ({@code [BATCH,
 * 10, H - 2, W - 2]}), proves each layer's rule or reports it, and collects what the layers need of
 * the sizes ({@code H >= 12}) with the declared constraints below into the model's requirements,
 * which the generated model checks before it binds an executor for a new shape. See {@code
 * docs/dimensions.md}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.FIELD)
public @interface FreeDim {
  /** The least size the dimension takes; at least 1. */
  int min() default 1;

  /** The greatest size the dimension takes, or {@code Integer.MAX_VALUE} for no limit. */
  int max() default Integer.MAX_VALUE;

  /** The dimension's sizes are multiples of this (e.g. 8 for a network that halves thrice). */
  int multipleOf() default 1;

  /**
   * The dimension equals this expression in the model's other dimensions, e.g. {@code "W"} for a
   * square image or {@code "64 * HEADS"}; empty for an independent dimension. Written with
   * integers, dimension names, {@code + - * / %} and parentheses; {@code /} is the floor of a
   * division by a positive integer.
   */
  String equals() default "";
}
