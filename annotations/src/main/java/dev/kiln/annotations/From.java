package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Wires a node parameter to the node or input with the given name instead of the parameter's own
 * name.
 *
 * <pre>{@code @Dense(units = 10) Sym logits(@From("hidden") Sym h);}</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface From {
  /** Name of the node or input this parameter reads. */
  String value();
}
