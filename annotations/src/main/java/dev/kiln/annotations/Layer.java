package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a custom layer. The layer is itself an annotation type, so a model uses it exactly like
 * a built-in layer; its elements are the layer's dimensions, and its forward pass is a static
 * method written with {@link Sym} operations, traced once when the graph is built.
 *
 * <pre>{@code
 * // y = x·W + b: the classic hand-written layer
 * @Layer(input = {"batch", "in"}, output = {"batch", "out"}, forward = Affine.Forward.class)
 * public @interface Affine {
 *   int out();                                   // a dimension, given where the layer is used
 *
 *   final class Forward {
 *     public static Sym apply(Sym x,
 *         @Param(shape = {"in", "out"}) Sym weight,
 *         @Param(shape = {"out"}, zeros = true) Sym bias) {
 *       return x.dot(weight).add(bias);
 *     }
 *   }
 * }
 *
 * @Model
 * interface Net {
 *   @Input(shape = {BATCH, 784}) Sym pixels();
 *   @Affine(out = 128)           Sym hidden(Sym pixels);
 * }
 * }</pre>
 *
 * <p>Shapes are written with dimension names. A name that is an {@code int} element of the layer
 * annotation takes the value written where the layer is used; any other name is bound by matching
 * the {@link #input()} pattern against the actual input's shape ({@code in = 784} above). The
 * processor checks the input against the pattern, infers the output and parameter shapes, and
 * reports a name it cannot bind. The body's own operations are checked when the graph is built,
 * before anything is bound.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.ANNOTATION_TYPE)
public @interface Layer {
  /** The input's shape pattern, one dimension name (or a number) per dimension. */
  String[] input();

  /** The output's shape pattern, in the same names. */
  String[] output();

  /**
   * The class holding the forward pass: one public static method returning {@link Sym} whose first
   * parameter is the input and whose other parameters are the layer's {@link Param}s.
   */
  Class<?> forward();
}
