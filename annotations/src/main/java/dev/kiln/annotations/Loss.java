package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A loss head over any node that computes one loss value per example (shape {@code [BATCH]} or
 * {@code [BATCH, 1]}), as MXNet's {@code MakeLoss}: training minimises its mean over the batch, so
 * a custom loss is a custom layer followed by {@code @Loss}. Its output is the loss itself. A model
 * whose {@code @Loss} needs a target takes it as a second {@code @Input}, which the trainer feeds
 * with each example's target values.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Loss {}
