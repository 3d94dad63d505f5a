package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A learnable parameter of a custom {@link Layer}, declared as a parameter of the layer's forward
 * method. Its MXNet name is {@code <node>_<parameter name>} with the parameter's name in snake
 * case, e.g. {@code hidden_weight}, or {@code gated_gate_weight} for parameter {@code gateWeight}
 * of node {@code gated}; it is initialised, trained, saved and exposed by the generated model like
 * a built-in layer's.
 *
 * <p>It starts as {@link #init()} says: drawn by the model's initialiser (the default), or every
 * element zero, one or {@link #value()}:
 *
 * <pre>{@code
 * @Param(shape = {"in", "out"}) Sym weight                              // the model's initialiser
 * @Param(shape = {"out"}, init = ParamInit.ZEROS) Sym bias              // or zeros = true
 * @Param(shape = {"channels", "1", "1"}, init = ParamInit.ONES) Sym scale
 * @Param(shape = {"out"}, init = ParamInit.CONSTANT, value = 0.25) Sym slope
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Param {
  /** The shape, in the layer's dimension names (or numbers). */
  String[] shape();

  /**
   * Starts at zero (a bias) instead of the model's initialiser: the same as {@code init =
   * ParamInit.ZEROS}, which it must not contradict.
   */
  boolean zeros() default false;

  /** How the parameter starts: the model's initialiser unless it says otherwise. */
  ParamInit init() default ParamInit.MODEL;

  /** The value every element starts at, with {@code init = ParamInit.CONSTANT} (only). */
  double value() default 0;
}
