package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Takes the largest value of each channel over all its positions, MXNet's {@code Pooling} with
 * {@code global_pool = True} and {@code pool_type = max}.
 *
 * <pre>{@code @GlobalMaxPool Sym peak(Sym conv);   // [N, C, H, W] -> [N, C, 1, 1]}</pre>
 *
 * <p>Shape rule (MXNet's {@code PoolingShape}, global pooling, channels-first): the input has rank
 * 3 to 5, {@code [N, C, ...]}; the output keeps {@code N} and {@code C} and sets every other
 * dimension to 1, e.g. {@code [N, C, W]} to {@code [N, C, 1]}. The spatial dimensions may be {@link
 * Dim#BATCH}. No parameters. The gradient flows to the largest value of each channel.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface GlobalMaxPool {}
