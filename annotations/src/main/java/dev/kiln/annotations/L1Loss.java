package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A regression head like {@link L2Loss} that minimises the mean absolute error, as MXNet's {@code
 * MAERegressionOutput} does: the loss of an example is the mean over its values of {@code
 * |prediction - target|}, averaged over the batch. Its output is the prediction; the metric is the
 * mean absolute error ({@code mae}), the loss itself.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface L1Loss {}
