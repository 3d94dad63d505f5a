package dev.kiln.ops.rule;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A shape as the processor knows it: {@code -1} ({@code BATCH}) or {@code -5} ({@code STEPS}) for a
 * dimension fixed only when an executor is bound; every rule treats both as unknown, and shapes
 * compare them as different.
 *
 * <p><b>Free dimensions.</b> A size written in a model's declared free dimensions ({@code H},
 * {@code W - 4}, {@code H / 2 * W}) is a {@link SizeExpr}; in a shape it stands as a <i>handle</i>,
 * a number at or below {@link #FREE_HANDLES} that {@link #size(SizeExpr)} gives each distinct
 * expression once (expressions are canonical, so equal sizes have equal handles and shapes compare
 * as before). {@link #size(int)} reads any dimension back as an expression. Rules that have not
 * learnt free dimensions never see one: the checker refuses their nodes first ({@code
 * FreeDimUnsupported}), so a handle is never mistaken for an unknown batch.
 *
 * @param dims the dimensions, outermost first
 */
public record TShape(List<Integer> dims) {
  /** The value of an unknown dimension, {@code Dim.BATCH}. */
  public static final int BATCH = -1;

  /** The value of a number of steps fixed at bind time, {@code Dim.STEPS}. */
  public static final int STEPS = -5;

  /**
   * The greatest placeholder a model's {@code @FreeDim} constant may be: its value stands for the
   * dimension in annotations, from this down to {@link #PLACEHOLDER_LAST}.
   */
  public static final int PLACEHOLDER_FIRST = -10;

  /** The least placeholder of a free dimension. */
  public static final int PLACEHOLDER_LAST = -999;

  /** Whether {@code d} is in the range of free dimensions' placeholders. */
  public static boolean isPlaceholder(int d) {
    return d <= PLACEHOLDER_FIRST && d >= PLACEHOLDER_LAST;
  }

  /** Handles of free sizes are this number and below. */
  public static final int FREE_HANDLES = -1000;

  private static final Map<SizeExpr, Integer> HANDLES = new ConcurrentHashMap<>();
  private static final Map<Integer, SizeExpr> EXPRESSIONS = new ConcurrentHashMap<>();

  /**
   * The dimension value of {@code size}: the number when it is a constant, {@link #BATCH} when it
   * is written in {@code BATCH} or {@code STEPS} beyond being one of them (an unknown, as rules
   * always made it), {@link #STEPS} for {@code STEPS}, else the handle of the expression.
   */
  public static int size(SizeExpr size) {
    if (size.isConstant()) {
      return Math.toIntExact(size.constant());
    }
    String name = size.dimName();
    if ("BATCH".equals(name)) {
      return BATCH;
    }
    if ("STEPS".equals(name)) {
      return STEPS;
    }
    if (size.dims().contains("BATCH") || size.dims().contains("STEPS")) {
      return BATCH;
    }
    synchronized (HANDLES) {
      return HANDLES.computeIfAbsent(
          size,
          s -> {
            int h = FREE_HANDLES - EXPRESSIONS.size();
            EXPRESSIONS.put(h, s);
            return h;
          });
    }
  }

  /** Whether dimension value {@code d} is the handle of a free size. */
  public static boolean isFree(int d) {
    return d <= FREE_HANDLES;
  }

  /** Dimension value {@code d} as an expression: {@code BATCH} and {@code STEPS} by name. */
  public static SizeExpr expression(int d) {
    if (d >= 0) {
      return SizeExpr.constant(d);
    }
    if (d == BATCH) {
      return SizeExpr.dim("BATCH");
    }
    if (d == STEPS) {
      return SizeExpr.dim("STEPS");
    }
    SizeExpr e = EXPRESSIONS.get(d);
    if (e == null) {
      throw new IllegalArgumentException("no free size has handle " + d);
    }
    return e;
  }

  /** Dimension {@code i} as an expression (see {@link #expression(int)}). */
  public SizeExpr size(int i) {
    return expression(dims.get(i));
  }

  /** Whether some dimension is a free size. */
  public boolean hasFree() {
    return dims.stream().anyMatch(TShape::isFree);
  }

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
    return isFree(d)
        ? expression(d).toString()
        : d == STEPS ? "STEPS" : d < 0 ? "BATCH" : Integer.toString(d);
  }
}
