package dev.kiln.runtime.optim;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import java.util.List;

/**
 * Adam, with MXNet's fused {@code adam_update} run in place on each parameter, and its bias
 * correction done as MXNet's Python {@code Adam} does it. At step {@code t} (1 for the first) at
 * scheduled rate {@code lr}:
 *
 * <pre>
 * g   = clip(rescale · grad + wd · w)              weight decay is an L2 term, as in MXNet's Adam
 * m   = β1 · m + (1 - β1) · g
 * v   = β2 · v + (1 - β2) · g²
 * lrₜ = lr · sqrt(1 - β2^t) / (1 - β1^t)
 * w  -= lrₜ · m / (sqrt(v) + ε)
 * </pre>
 *
 * <p>For weight decay decoupled from the gradient use {@link AdamW}. The moments {@code m} and
 * {@code v} start at zero, one pair of arrays per parameter made on its first step.
 *
 * <pre>{@code
 * new Adam(1e-3f)
 * Adam.builder().learningRate(3e-4f).beta2(0.98f).epsilon(1e-6f).clipGradient(1f).build()
 * }</pre>
 */
public final class Adam extends MomentOptimizer {
  private static final String[] KEYS = {
    "lr", "beta1", "beta2", "epsilon", "wd", "rescale_grad", "clip_gradient"
  };

  /** Adam with learning rate 0.001 and MXNet's defaults β1 0.9, β2 0.999, ε 1e-8. */
  public Adam() {
    this(builder());
  }

  /** Adam with learning rate {@code learningRate} and β1 0.9, β2 0.999, ε 1e-8. */
  public Adam(float learningRate) {
    this(builder().learningRate(learningRate));
  }

  private Adam(Builder b) {
    super("Adam", KEYS, b);
  }

  /** A builder; the learning rate is 0.001 unless set. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  State newState(ParameterStore.Slot slot) {
    List<Tensor> moments = zerosLike(slot, 2);
    try {
      return new State(moments, inPlace("adam_update", slot, moments));
    } catch (RuntimeException e) {
      moments.forEach(Tensor::close);
      throw e;
    }
  }

  @Override
  void values(float[] out, float lr, float rescale, long t) {
    out[0] = (float) (lr * biasCorrection(t));
    out[1] = beta1;
    out[2] = beta2;
    out[3] = epsilon;
    out[4] = weightDecay();
    out[5] = rescale;
    out[6] = clipGradient();
  }

  /** Builds an {@link Adam}. */
  public static final class Builder extends FusedOptimizer.MomentsBuilder<Builder> {
    private Builder() {
      super(1e-3f);
    }

    @Override
    Builder self() {
      return this;
    }

    @Override
    public Adam build() {
      return new Adam(this);
    }
  }
}
