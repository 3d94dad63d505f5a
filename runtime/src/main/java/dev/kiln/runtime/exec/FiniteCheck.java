package dev.kiln.runtime.exec;

import com.sun.jna.Pointer;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.List;

/**
 * Whether some arrays hold only finite values, with one MXNet call: {@code multi_sum_sq} sums the
 * squares of each array (NaN and infinity carry through a sum), and one read of the sums. A sum can
 * also overflow to infinity for huge finite values; then the array itself is read to tell which it
 * is, so the answer is exact.
 *
 * <p>MXNet lets NaN and infinity pass through every operator silently; Kiln checks inputs before
 * they reach a model and gradients before an update applies them.
 */
public final class FiniteCheck implements AutoCloseable {
  private static final String[] KEYS = {"num_arrays"};

  private final Tensor[] arrays;
  private final Tensor sums;
  private final PreparedOp op;
  private final String[] values;

  /** A check of {@code arrays}, which must outlive it; it owns only its small result array. */
  public FiniteCheck(List<Tensor> arrays) {
    if (arrays.isEmpty()) {
      throw new IllegalArgumentException("nothing to check");
    }
    this.arrays = arrays.toArray(new Tensor[0]);
    Pointer[] handles = new Pointer[this.arrays.length];
    for (int i = 0; i < handles.length; i++) {
      handles[i] = this.arrays[i].handle();
    }
    this.sums = Tensor.zeros(Shape.of(this.arrays.length), this.arrays[0].device());
    try {
      this.op = new PreparedOp("multi_sum_sq", handles, new Pointer[] {sums.handle()});
    } catch (RuntimeException e) {
      sums.close();
      throw e;
    }
    this.values = new String[] {Integer.toString(this.arrays.length)};
  }

  /**
   * The index of the first array holding a NaN or an infinity, or -1 when all are finite. Waits for
   * every pending write to the arrays.
   */
  public int firstNonFinite() {
    op.run(KEYS, values);
    float[] s = sums.toFloatArray();
    for (int i = 0; i < s.length; i++) {
      if (!Float.isFinite(s[i]) && firstNonFinite(arrays[i].toFloatArray()) >= 0) {
        return i;
      }
    }
    return -1;
  }

  /** The index of the first NaN or infinity in {@code values}, or -1. */
  public static int firstNonFinite(float[] values) {
    for (int i = 0; i < values.length; i++) {
      if (!Float.isFinite(values[i])) {
        return i;
      }
    }
    return -1;
  }

  /** Frees the result array (not the checked arrays). */
  @Override
  public void close() {
    sums.close();
  }
}
