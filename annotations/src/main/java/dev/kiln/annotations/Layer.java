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
 *
 * <p><b>Recurrent cells.</b> A layer with a {@link #state()} pattern is a recurrent cell: its
 * forward method computes one step, taking the step's input and then the previous step's state, and
 * returns the new state. Used on a sequence, the step input's pattern with a constant number of
 * steps after its first dimension ({@code [BATCH, 10, 4]} for {@code input = {"batch", "in"}}), it
 * is unrolled over the steps when the graph is built, every step sharing the parameters; the state
 * starts at zeros, and the node's output is every step's state, stacked after the first dimension
 * ({@code [BATCH, 10, hidden]}).
 *
 * <pre>{@code
 * // h' = tanh(x·W + h·U + b): the plain recurrent cell
 * @Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
 *     forward = TanhCell.Step.class)
 * public @interface TanhCell {
 *   int hidden();
 *
 *   final class Step {
 *     public static Sym apply(Sym x, Sym h,
 *         @Param(shape = {"in", "hidden"}) Sym w,
 *         @Param(shape = {"hidden", "hidden"}) Sym u,
 *         @Param(shape = {"hidden"}, zeros = true) Sym b) {
 *       return x.dot(w).add(h.dot(u)).add(b).activation(Act.TANH);
 *     }
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.ANNOTATION_TYPE)
public @interface Layer {
  /** The input's shape pattern, one dimension name (or a number) per dimension. */
  String[] input();

  /**
   * The output's shape pattern, in the same names; for a recurrent cell, one step's output, which
   * is its new state, so it must equal {@link #state()}.
   */
  String[] output();

  /**
   * For a recurrent cell, the shape pattern of the state it carries from step to step, in the same
   * names; empty (the default) for a layer without state.
   */
  String[] state() default {};

  /**
   * The class holding the forward pass: one public static method returning {@link Sym} whose first
   * parameter is the input and whose other parameters are the layer's {@link Param}s (and
   * constants); a recurrent cell's takes the previous state second, before the parameters.
   */
  Class<?> forward();
}
