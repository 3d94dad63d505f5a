package dev.kiln.annotations;

/** Constants for shapes. */
public final class Dim {
  /**
   * A dimension fixed only when an executor is bound: the batch size, a sequence length. Any
   * positive size matches it.
   */
  public static final int BATCH = -1;

  private Dim() {}
}
