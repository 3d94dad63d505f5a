package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Freezes a node's parameters: they are bound with MXNet's {@code grad_req = null} (no gradient is
 * computed for them) and no optimizer step or update changes them. They can still be set by hand
 * and are saved and loaded with the model. Gradients still flow through the node to the nodes
 * before it.
 *
 * <pre>{@code @Frozen @Embedding(inputDim = 1000, outputDim = 16) Sym vectors(Sym tokens);}</pre>
 *
 * <p>Only a node with parameters can be frozen; a {@code @BatchNorm}'s moving averages are not
 * parameters and keep being updated by training-mode forward passes.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Frozen {}
