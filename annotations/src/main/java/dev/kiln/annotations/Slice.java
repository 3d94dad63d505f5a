package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A contiguous range of one axis of a node, MXNet's {@code slice_axis}: from index {@code begin}
 * (included) to {@code end} (excluded); negative indices count from the end of the axis, as in
 * MXNet and Python.
 *
 * <pre>{@code @Slice(axis = 1, begin = 2, end = 5) Sym middle(Sym x);   // [N, 8] to [N, 3]
 * @Slice(axis = -1, begin = -1) Sym last(Sym x);                 // [N, T, 8] to [N, T, 1]}</pre>
 *
 * <p>Shape rule (MXNet's {@code SliceAxisShape}): with {@code S} the size of {@code axis} and
 * negative indices counted from the end, {@code 0 <= begin < end <= S}; the output has {@code end -
 * begin} along {@code axis}. MXNet does not clip out-of-range indices, and neither does Kiln.
 * {@code S} must be known at compile time: a {@code BATCH} axis is refused (a slice of the batch
 * keeps some examples and drops others, for some batch sizes only), and so is a {@code STEPS} axis.
 * The gradient is zero outside the range. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Slice {
  /** {@link #end()}'s default: the end of the axis (MXNet's {@code end = None}). */
  int END = Integer.MAX_VALUE;

  /** The axis to slice; negative values count from the end. */
  int axis();

  /** The first index taken; negative values count from the end; 0 by default. */
  int begin() default 0;

  /** The index after the last taken; negative values count from the end; the end by default. */
  int end() default END;
}
