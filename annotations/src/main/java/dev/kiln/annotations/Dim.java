package dev.kiln.annotations;

/** Constants for shapes. */
public final class Dim {
  /**
   * The batch size: a dimension fixed only when an executor is bound. Any positive size matches it;
   * every {@code BATCH} of one call (across all inputs) has the same size.
   */
  public static final int BATCH = -1;

  /**
   * The number of steps of a sequence, {@code [BATCH, STEPS, features]}: like {@link #BATCH} fixed
   * only when an executor is bound, and distinct from it, so that the compiler and its messages can
   * tell the two apart. Executors are cached per batch size and number of steps, all sharing the
   * parameters: training on sequences of 10 steps and predicting on 25 uses the same weights. Its
   * value is one no {@link Reshape} code uses. A custom recurrent cell (a {@link Layer} with a
   * state) is unrolled when the graph is built, so it needs a constant number of steps instead.
   */
  public static final int STEPS = -5;

  private Dim() {}
}
