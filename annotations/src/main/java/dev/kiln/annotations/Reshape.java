package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives the input a new shape with the same values in the same (row-major) order, MXNet's {@code
 * Reshape} with its {@code shape} attribute, special values included.
 *
 * <pre>{@code @Reshape(shape = {BATCH, 1, 28, 28}) Sym image(Sym pixels);}</pre>
 *
 * <p>reads each row of {@code [N, 784]} pixels as a {@code [1, 28, 28]} image.
 *
 * <p>Each entry of {@code shape} is a positive size or one of MXNet's special values, read left to
 * right against the input's dimensions:
 *
 * <ul>
 *   <li>{@link #COPY} (0): copy the next input dimension;
 *   <li>{@link #INFER} (-1, the same value as {@link Dim#BATCH}): infer this dimension so that the
 *       number of values stays the same; at most one. {@code {BATCH, 1, 28, 28}} therefore reads
 *       naturally: the first dimension is whatever the batch size makes it;
 *   <li>{@link #COPY_REST} (-2): copy all remaining input dimensions;
 *   <li>{@link #MERGE} (-3): one dimension, the product of the next two input dimensions;
 *   <li>{@link #SPLIT} (-4) followed by two sizes {@code a, b} (one of them may be -1): split the
 *       next input dimension into {@code [a, b]}.
 * </ul>
 *
 * <p>The processor checks at compile time that the reshape is possible for every batch size: the
 * number of values must be preserved, an inferred dimension must come out whole, and a {@code
 * BATCH} input dimension must end up in some output dimension (copied, merged, split or inferred).
 * No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Reshape {
  /** Copy the next input dimension. */
  int COPY = 0;

  /** Infer this dimension from the number of values; equal to {@link Dim#BATCH}. */
  int INFER = -1;

  /** Copy every remaining input dimension. */
  int COPY_REST = -2;

  /** Merge the next two input dimensions into one. */
  int MERGE = -3;

  /** Split the next input dimension into the two sizes that follow. */
  int SPLIT = -4;

  /** The target shape, in MXNet's notation (see the class documentation). */
  int[] shape();
}
