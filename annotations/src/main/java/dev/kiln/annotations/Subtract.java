package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Element-wise difference of two nodes, broadcasting, MXNet's {@code broadcast_sub}: the first
 * parameter minus the second.
 *
 * <pre>{@code @Subtract Sym centred(Sym x, Sym mean);   // [N, T, F] minus [N, 1, F]}</pre>
 *
 * <p>Shape rule (MXNet's {@code BinaryBroadcastShape}), with Kiln's two restrictions: the inputs
 * have equal rank (MXNet would match a missing axis from the right, so {@code [C]} against {@code
 * [N, C, H, W]} meets {@code W}, which only works when {@code C == W} and is rarely meant; reshape
 * first, e.g. {@code @Reshape(shape = {BATCH, C, 1, 1})}), and along every axis the sizes are equal
 * or one of them is 1, where {@code BATCH} (or {@code STEPS}) equals only itself and 1: against a
 * size above 1 it would work for one batch size only. The output takes the larger size of each
 * axis. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Subtract {}
