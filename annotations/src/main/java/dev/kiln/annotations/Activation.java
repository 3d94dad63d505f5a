package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An element-wise activation, MXNet's {@code Activation}; the output has the input's shape.
 *
 * <pre>{@code @Activation(Act.RELU) Sym act(Sym hidden);}</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Activation {
  /** The function applied; {@link Act#NONE} is not allowed here. */
  Act value();
}
