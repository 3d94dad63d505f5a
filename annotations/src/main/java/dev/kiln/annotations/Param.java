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
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Param {
  /** The shape, in the layer's dimension names (or numbers). */
  String[] shape();

  /** Starts at zero (a bias) instead of the model's initialiser. */
  boolean zeros() default false;
}
