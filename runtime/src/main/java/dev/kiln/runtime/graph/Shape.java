package dev.kiln.runtime.graph;

import dev.kiln.ops.rule.TShape;
import java.util.Arrays;

/**
 * An immutable tensor shape. A dimension of {@link dev.kiln.annotations.Dim#BATCH} (-1) or {@link
 * dev.kiln.annotations.Dim#STEPS} (-5) is fixed only when an executor is bound, and so is a free
 * dimension: a model's {@link dev.kiln.annotations.FreeDim} placeholder ({@code -10} to {@code
 * -999}) in a declared input, or {@link #FREE} for a size computed from free dimensions. Free
 * entries may carry labels, their names or expressions ({@link #free}), which {@link #toString}
 * writes.
 */
public final class Shape {
  /** The placeholder of a batch dimension, {@link dev.kiln.annotations.Dim#BATCH}. */
  public static final int BATCH = -1;

  /** The placeholder of a number of steps, {@link dev.kiln.annotations.Dim#STEPS}. */
  public static final int STEPS = -5;

  /** A size computed from free dimensions, known when an executor is bound. */
  public static final int FREE = -9;

  private final int[] dims;
  private final String[] labels;

  private Shape(int[] dims, String[] labels) {
    this.dims = dims;
    this.labels = labels;
  }

  /** A shape with the given dimensions (copied). */
  public static Shape of(int... dims) {
    for (int d : dims) {
      if (d <= 0 && d != BATCH && d != STEPS && !isFree(d)) {
        throw new IllegalArgumentException(
            "a dimension must be positive, BATCH (-1), STEPS (-5) or free (-9 to -999), got "
                + Arrays.toString(dims));
      }
    }
    return new Shape(dims.clone(), null);
  }

  /**
   * Whether {@code d} is a free dimension: {@link #FREE} or a {@link dev.kiln.annotations.FreeDim}
   * placeholder.
   */
  public static boolean isFree(int d) {
    return d <= FREE && d >= dev.kiln.ops.rule.TShape.PLACEHOLDER_LAST;
  }

  /**
   * This shape with its free entries labelled, in order: {@code Shape.of(BATCH, 3, H, W).free("H",
   * "W")}, {@code Shape.of(BATCH, 8, FREE, FREE).free("H - 4", "W - 4")}.
   *
   * @throws IllegalArgumentException unless there is one label per free entry
   */
  public Shape free(String... names) {
    int free = 0;
    String[] l = new String[dims.length];
    for (int i = 0; i < dims.length; i++) {
      if (isFree(dims[i])) {
        if (free >= names.length) {
          break;
        }
        l[i] = names[free++];
      }
    }
    if (free != names.length || Arrays.stream(dims).filter(Shape::isFree).count() != free) {
      throw new IllegalArgumentException(
          "shape "
              + Arrays.toString(dims)
              + " has "
              + Arrays.stream(dims).filter(Shape::isFree).count()
              + " free dimensions, got "
              + names.length
              + " labels");
    }
    return new Shape(dims, l);
  }

  /** The label of entry {@code i}, a free entry's name or expression ({@link #free}), or null. */
  public String label(int i) {
    return labels == null ? null : labels[i];
  }

  /** The shape an operator unit's rules wrote, {@code BATCH} and {@code STEPS} kept. */
  public static Shape of(TShape shape) {
    int[] d = shape.dims().stream().mapToInt(Integer::intValue).toArray();
    String[] l = new String[d.length];
    boolean free = false;
    for (int i = 0; i < d.length; i++) {
      if (dev.kiln.ops.rule.TShape.isFree(d[i])) {
        l[i] = dev.kiln.ops.rule.TShape.expression(d[i]).toString();
        d[i] = FREE;
        free = true;
      }
    }
    return free ? new Shape(of(d).dims, l) : of(d);
  }

  /** This shape with every {@code BATCH} dimension set to {@code batch}. */
  public Shape withBatch(int batch) {
    int[] d = dims.clone();
    for (int i = 0; i < d.length; i++) {
      if (d[i] == BATCH) {
        d[i] = batch;
      }
    }
    return new Shape(of(d).dims, labels);
  }

  /** This shape with every {@code STEPS} dimension set to {@code steps}. */
  public Shape withSteps(int steps) {
    int[] d = dims.clone();
    for (int i = 0; i < d.length; i++) {
      if (d[i] == STEPS) {
        d[i] = steps;
      }
    }
    return new Shape(of(d).dims, labels);
  }

  /** Number of dimensions. */
  public int rank() {
    return dims.length;
  }

  /** Size of dimension {@code i}; {@link #BATCH} or {@link #STEPS} for those. */
  public int dim(int i) {
    return dims[i];
  }

  /** The dimensions (a copy). */
  public int[] dims() {
    return dims.clone();
  }

  /** Whether every dimension is known. */
  public boolean isComplete() {
    for (int d : dims) {
      if (d < 0) {
        return false;
      }
    }
    return true;
  }

  /** Number of elements; only for complete shapes. */
  public long size() {
    if (!isComplete()) {
      throw new IllegalStateException("shape " + this + " is not complete");
    }
    long n = 1;
    for (int d : dims) {
      n *= d;
    }
    return n;
  }

  /**
   * Whether the complete shape {@code actual} fits this one ({@code BATCH} and {@code STEPS} match
   * any size).
   */
  public boolean accepts(Shape actual) {
    return mismatch(actual).isEmpty();
  }

  /**
   * Where {@code actual} breaks this shape, for messages: {@code "rank 3, not 4"} or {@code "axis 1
   * is 2, not 1"}; empty when this {@link #accepts} it.
   */
  public String mismatch(Shape actual) {
    if (actual.dims.length != dims.length) {
      return "rank " + actual.dims.length + ", not " + dims.length;
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] >= 0 && dims[i] != actual.dims[i]) {
        return "axis " + i + " is " + actual.dims[i] + ", not " + dims[i];
      }
    }
    return "";
  }

  /** The shape as an MXNet attribute string, e.g. {@code (128,784)}. */
  public String toMxnet() {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < dims.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(dims[i]);
    }
    if (dims.length == 1) {
      b.append(',');
    }
    return b.append(')').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape s && Arrays.equals(dims, s.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  /** The shape as Kiln writes it everywhere: {@code [BATCH, 784]}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < dims.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(
          labels != null && labels[i] != null
              ? labels[i]
              : dims[i] == BATCH
                  ? "BATCH"
                  : dims[i] == STEPS
                      ? "STEPS"
                      : dims[i] == FREE ? "FREE" : Integer.toString(dims[i]));
    }
    return b.append(']').toString();
  }
}
