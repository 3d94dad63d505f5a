package dev.kiln.ops.rule;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A shape as the processor knows it: {@code -1} ({@code BATCH}) or {@code -5} ({@code STEPS}) for a
 * dimension fixed only when an executor is bound; every rule treats both as unknown, and shapes
 * compare them as different.
 *
 * @param dims the dimensions, outermost first
 */
public record TShape(List<Integer> dims) {
  /** The value of an unknown dimension, {@code Dim.BATCH}. */
  public static final int BATCH = -1;

  /** The value of a number of steps fixed at bind time, {@code Dim.STEPS}. */
  public static final int STEPS = -5;

  /** Copies {@code dims}. */
  public TShape {
    dims = List.copyOf(dims);
  }

  /** A shape of the given dimensions. */
  public static TShape of(int... dims) {
    return new TShape(Arrays.stream(dims).boxed().toList());
  }

  /** The number of dimensions. */
  public int rank() {
    return dims.size();
  }

  /** Dimension {@code i}; {@link #BATCH} when unknown. */
  public int dim(int i) {
    return dims.get(i);
  }

  /** Product of dimensions {@code from} to the end, or BATCH if any of them is BATCH. */
  public int product(int from) {
    long p = 1;
    for (int i = from; i < dims.size(); i++) {
      if (dims.get(i) < 0) {
        return BATCH;
      }
      p *= dims.get(i);
    }
    return p > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) p;
  }

  /** Product of all dimensions; BATCH counted as 1 (a per-example size). */
  public long perExample() {
    long p = 1;
    for (int d : dims) {
      p *= d < 0 ? 1 : d;
    }
    return p;
  }

  /** Whether some dimension is {@link #BATCH}. */
  public boolean hasBatch() {
    return dims.stream().anyMatch(d -> d < 0);
  }

  /** {@code [BATCH, 784]}, as every Kiln message and table writes shapes. */
  @Override
  public String toString() {
    return dims.stream().map(TShape::dimension).collect(Collectors.joining(", ", "[", "]"));
  }

  /** {@code BATCH, 784}: the arguments of {@code Shape.of} in generated code. */
  public String asArguments() {
    return dims.stream().map(TShape::dimension).collect(Collectors.joining(", "));
  }

  private static String dimension(int d) {
    return d == STEPS ? "STEPS" : d < 0 ? "BATCH" : Integer.toString(d);
  }
}
