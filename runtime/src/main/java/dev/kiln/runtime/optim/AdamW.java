package dev.kiln.runtime.optim;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import java.util.List;

/**
 * AdamW: Adam with weight decay decoupled from the gradient (Loshchilov &amp; Hutter), with MXNet's
 * fused {@code _adamw_update} run in place on each parameter. At step {@code t} (1 for the first)
 * at scheduled rate {@code lr}:
 *
 * <pre>
 * g  = clip(rescale · grad)                        no weight decay in the gradient
 * m  = β1 · m + (1 - β1) · g
 * v  = β2 · v + (1 - β2) · g²
 * c  = sqrt(1 - β2^t) / (1 - β1^t)                 bias correction, as in {@link Adam}
 * w -= lr · (c · m / (sqrt(v) + ε) + wd · w)       w on the right is the weight before the step
 * </pre>
 *
 * <p>So the decay shrinks weights by {@code lr · wd} per step whatever the gradients, and follows
 * the schedule. (MXNet's operator computes {@code w -= eta · (lr · m / (sqrt(v) + ε) + wd · w)};
 * Kiln passes the scheduled rate as {@code eta} and the bias correction as {@code lr}.) The
 * gradient rescale factor is one one-element array shared by every parameter, as the operator takes
 * it.
 *
 * <pre>{@code
 * AdamW.builder().learningRate(1e-3f).weightDecay(0.01f).build()
 * }</pre>
 */
public final class AdamW extends MomentOptimizer {
  private static final String[] KEYS = {
    "lr", "beta1", "beta2", "epsilon", "wd", "eta", "clip_gradient"
  };

  private final java.util.Map<Integer, Tensor> rescaleArrays = new java.util.HashMap<>();
  private float rescaleWritten = Float.NaN;

  /** AdamW with learning rate 0.001, no weight decay, β1 0.9, β2 0.999, ε 1e-8. */
  public AdamW() {
    this(builder());
  }

  /** AdamW with a learning rate and decoupled weight decay {@code wd}. */
  public AdamW(float learningRate, float weightDecay) {
    this(builder().learningRate(learningRate).weightDecay(weightDecay));
  }

  private AdamW(Builder b) {
    super("AdamW", KEYS, b);
  }

  /** A builder; the learning rate is 0.001 and the weight decay 0 unless set. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  State newState(ParameterStore.Slot slot) {
    List<Tensor> moments = zerosLike(slot, 2);
    try {
      return new State(
          moments,
          inPlace("_adamw_update", slot, moments, rescaleArray(slot.weight().device()).handle()));
    } catch (RuntimeException e) {
      moments.forEach(Tensor::close);
      throw e;
    }
  }

  @Override
  void values(float[] out, float lr, float rescale, long t) {
    if (rescale != rescaleWritten) {
      // The operator reads its rescale factor from an array, and skips the update if it is 0.
      for (Tensor a : rescaleArrays.values()) {
        a.copyFrom(new float[] {rescale});
      }
      rescaleWritten = rescale;
    }
    out[0] = (float) biasCorrection(t);
    out[1] = beta1;
    out[2] = beta2;
    out[3] = epsilon;
    out[4] = weightDecay();
    out[5] = lr;
    out[6] = clipGradient();
  }

  /** The one-element rescale array on {@code cpu(device)}, made on first use. */
  private Tensor rescaleArray(int device) {
    return rescaleArrays.computeIfAbsent(
        device,
        d -> {
          Tensor a = Tensor.zeros(Shape.of(1), d);
          a.copyFrom(new float[] {rescaleWritten});
          return a;
        });
  }

  @Override
  void closeExtra() {
    rescaleArrays.values().forEach(Tensor::close);
    rescaleArrays.clear();
  }

  /** Builds an {@link AdamW}. */
  public static final class Builder extends FusedOptimizer.MomentsBuilder<Builder> {
    private Builder() {
      super(1e-3f);
    }

    @Override
    Builder self() {
      return this;
    }

    @Override
    public AdamW build() {
      return new AdamW(this);
    }
  }
}
