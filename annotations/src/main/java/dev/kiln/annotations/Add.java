package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Element-wise sum of two or more nodes of equal shape, MXNet's {@code elemwise_add} (two inputs)
 * or {@code add_n} (more).
 *
 * <pre>{@code @Add Sym skip(Sym inner, Sym x);}</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Add {}
