package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A head for independent yes/no outputs (multi-label classification), as MXNet's {@code
 * LogisticRegressionOutput}: the output is the sigmoid of the input, a probability per value, and
 * training minimises the binary cross-entropy against targets in {@code [0, 1]} of the same shape:
 * the loss of an example is the mean over its values of {@code -(t·log p + (1 - t)·log(1 - p))},
 * averaged over the batch, computed from the input (the logits) without rounding {@code p}. The
 * metric is the binary accuracy ({@code binary_accuracy}): the fraction of values whose
 * cross-entropy is below {@code log 2}, which for targets 0 and 1 are those with {@code p > 0.5}
 * exactly where {@code t = 1}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface LogisticLoss {}
