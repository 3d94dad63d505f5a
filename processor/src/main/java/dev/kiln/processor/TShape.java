package dev.kiln.processor;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A shape as the processor knows it: {@code -1} ({@code BATCH}) for a dimension fixed only when
 * an executor is bound.
 */
record TShape(List<Integer> dims) {
  static final int BATCH = -1;

  TShape {
    dims = List.copyOf(dims);
  }

  static TShape of(int... dims) {
    return new TShape(java.util.Arrays.stream(dims).boxed().toList());
  }

  int rank() {
    return dims.size();
  }

  int dim(int i) {
    return dims.get(i);
  }

  /** Product of dimensions {@code from} to the end, or BATCH if any of them is BATCH. */
  int product(int from) {
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
  long perExample() {
    long p = 1;
    for (int d : dims) {
      p *= d < 0 ? 1 : d;
    }
    return p;
  }

  /** {@code [BATCH, 784]}, as every Kiln message and table writes shapes. */
  @Override
  public String toString() {
    return dims.stream().map(d -> d < 0 ? "BATCH" : d.toString())
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /** {@code BATCH, 784}: the arguments of {@code Shape.of} in generated code. */
  String asArguments() {
    return dims.stream().map(d -> d < 0 ? "BATCH" : d.toString())
        .collect(Collectors.joining(", "));
  }
}
