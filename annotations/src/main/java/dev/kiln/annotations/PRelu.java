package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A parametric ReLU with a learned slope per channel, MXNet's {@code LeakyReLU} with {@code
 * act_type = prelu}: {@code x} where {@code x > 0}, else {@code alpha[c] · x}, {@code c} the
 * channel (axis 1) of the value.
 *
 * <pre>{@code @PRelu Sym act(Sym conv);   // [N, C, H, W]: one slope per channel, C of them}</pre>
 *
 * <p>Shape rule (MXNet's {@code LeakyReLUShape}): the input has rank 2 or more, {@code [N, C, ...]}
 * (a rank-2 {@code [N, C]} too), with {@code C} known at compile time; the output has its shape.
 *
 * <p>Parameter {@code <node>_alpha} of shape {@code [C]} (the name Gluon's {@code PReLU} gives it,
 * so that a Gluon model's checkpoint fits), starting at 0.25 as in Gluon and PyTorch, read and
 * written as {@code params().<node>Alpha()} and saved in the checkpoint as {@code
 * arg:<node>_alpha}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface PRelu {}
