package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A learned positional embedding: adds row {@code t} of a learned table to step {@code t} of every
 * example of a sequence {@code [N, steps, width]}, so that attention, which sees its keys as a set,
 * knows where each step is.
 *
 * <pre>{@code @PositionalEmbedding(steps = 16) Sym placed(Sym tokens);}</pre>
 *
 * <p>Shape rule: the output has the input's shape; the input's steps may be fewer than {@link
 * #steps()} (the first rows are used) or {@code Dim.STEPS} (checked when the graph runs).
 *
 * <p>Parameter: {@code <node>_weight} of shape {@code [steps, width]}, initialised by the model's
 * initialiser.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface PositionalEmbedding {
  /** Number of positions the table holds: the most steps a sequence may have; positive. */
  int steps();
}
