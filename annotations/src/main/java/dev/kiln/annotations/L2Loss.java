package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A regression head: the model's output is its input, the prediction, and training (the model's
 * {@code trainer()}) minimises half the squared error against a target of the same shape, as
 * MXNet's {@code LinearRegressionOutput} and Gluon's {@code L2Loss} do: the loss of an example is
 * the mean over its values of {@code (prediction - target)² / 2}, averaged over the batch, so the
 * gradient of a value is {@code (prediction - target) / values / batch}. The metric is the mean
 * squared error ({@code mse}). It must be the model's only output and its input must start with
 * {@code BATCH}.
 *
 * <pre>{@code @L2Loss Sym reconstruction(Sym decoded);}</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface L2Loss {}
