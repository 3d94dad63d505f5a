package dev.kiln.runtime.optim;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain SGD without weight decay or clipping, {@code w = w - (lr · rescale) · g}, on a
 * one-dimensional (fused) parameter, run as MXNet's oneDNN {@code FullyConnected} with one input
 * feature instead of {@code sgd_update}: data {@code [[-(lr · rescale)]]}, weight {@code g} seen as
 * {@code [n, 1]}, bias {@code w}, into a scratch array, then {@code _copyto} into {@code w}. When
 * the gradient check has just queued a copy of {@code w} to take the step back with, the product
 * reads that copy as its bias and writes {@code w} directly (one pass over the weights fewer).
 *
 * <p>Why: MXNet 1.9.1's {@code sgd_update} kernel is a scalar loop that tests the clipping bound
 * and the write mode at every element; on the MLP's 101,770 parameters it took about 105 µs of CPU,
 * the inner product about 45 µs and the copy about 15 µs (issue 14, {@code docs/benchmarks.md}).
 * The result is the same to the bit: the product {@code (-(lr · rescale)) · g} and then the sum
 * with {@code w} are each rounded once, as {@code sgd_update} rounds {@code (lr · rescale) · g} and
 * then the difference (tested against {@code sgd_update}).
 *
 * <p>The factor lives in a one-element array, written with a synchronous copy only once it has held
 * still for two steps, so that the copy never waits for a queued update: the step at which it
 * changes (the first step, every step of a schedule that never holds still) runs {@code sgd_update}
 * instead.
 */
final class ScaledAddStep implements FusedOptimizer.FastStep {
  private static final String[] FC_KEYS = {"num_hidden", "no_bias", "flatten"};
  private static final String[] NO_STRINGS = {};

  private final int lrIndex;
  private final int rescaleIndex;
  private final List<Tensor> owned = new ArrayList<>();
  private final Tensor factor;
  private final PreparedOp product;
  private final PreparedOp copyBack;
  private final String[] fcValues;
  private final ParameterStore.Slot slot;
  private final Tensor gradColumn;
  private Tensor keptFor;
  private PreparedOp fromKept;
  private float current = Float.NaN;
  private float pending = Float.NaN;

  /**
   * The step for {@code slot}, whose weight and gradient must be one-dimensional; {@code lrIndex}
   * and {@code rescaleIndex} are where the learning rate and the rescale factor are in the
   * optimizer's attribute values.
   */
  ScaledAddStep(ParameterStore.Slot slot, int lrIndex, int rescaleIndex) {
    this.lrIndex = lrIndex;
    this.rescaleIndex = rescaleIndex;
    this.slot = slot;
    int n = (int) slot.weight().size();
    try {
      factor = keep(Tensor.zeros(Shape.of(1, 1), slot.weight().device()));
      Tensor scratch = keep(Tensor.zeros(Shape.of(n), slot.weight().device()));
      gradColumn = keep(slot.grad().view(0, Shape.of(n, 1)));
      Tensor scratchRow = keep(scratch.view(0, Shape.of(1, n)));
      product =
          new PreparedOp(
              "FullyConnected",
              new NDArrayHandle[] {factor.handle(), gradColumn.handle(), slot.weight().handle()},
              new NDArrayHandle[] {scratchRow.handle()});
      copyBack =
          new PreparedOp(
              "_copyto",
              new NDArrayHandle[] {scratch.handle()},
              new NDArrayHandle[] {slot.weight().handle()});
      fcValues = new String[] {Integer.toString(n), "False", "True"};
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Whether {@code slot} can take this step: one-dimensional arrays of at least one element. */
  static boolean fits(ParameterStore.Slot slot) {
    return slot.weight().shape().rank() == 1
        && slot.grad().shape().rank() == 1
        && slot.weight().size() > 0
        && slot.weight().size() <= Integer.MAX_VALUE;
  }

  private Tensor keep(Tensor t) {
    owned.add(t);
    return t;
  }

  @Override
  public boolean tryStep(float[] values, Tensor keptWeight) {
    // The same float product sgd_update forms from its lr and rescale_grad.
    float c = values[lrIndex] * values[rescaleIndex];
    if (Float.floatToIntBits(c) != Float.floatToIntBits(current)) {
      if (Float.floatToIntBits(c) != Float.floatToIntBits(pending)) {
        pending = c;
        return false;
      }
      // Held still for a step: the last read of the factor array was queued at least a step
      // ago, so the synchronous copy rarely has anything to wait for.
      factor.copyFrom(new float[] {-c});
      current = c;
    }
    if (keptWeight != null) {
      // The copy of the weights kept to take the step back holds exactly the weights: the product
      // reads it as its bias and writes the weights directly, with no scratch array to copy back.
      fromKept(keptWeight).run(FC_KEYS, fcValues);
    } else {
      product.run(FC_KEYS, fcValues);
      copyBack.run(NO_STRINGS, NO_STRINGS);
    }
    return true;
  }

  /** The inner product from {@code kept} (as its bias) into the weights, prepared on first use. */
  private PreparedOp fromKept(Tensor kept) {
    if (kept != keptFor) {
      if (!kept.shape().equals(slot.weight().shape())) {
        throw new IllegalArgumentException(
            "kept weights " + kept.shape() + " for weights " + slot.weight().shape());
      }
      int n = (int) slot.weight().size();
      Tensor weightRow = keep(slot.weight().view(0, Shape.of(1, n)));
      fromKept =
          new PreparedOp(
              "FullyConnected",
              new NDArrayHandle[] {factor.handle(), gradColumn.handle(), kept.handle()},
              new NDArrayHandle[] {weightRow.handle()});
      keptFor = kept;
    }
    return fromKept;
  }

  @Override
  public void close() {
    for (int i = owned.size() - 1; i >= 0; i--) {
      owned.get(i).close();
    }
    owned.clear();
  }
}
