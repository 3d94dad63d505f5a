package dev.kiln.runtime.optim;

/**
 * What {@link Adam} and {@link AdamW} share: the moments' decay rates β1, β2 and the ε added to
 * {@code sqrt(v)}, fixed when the optimizer is built.
 */
public abstract sealed class MomentOptimizer extends FusedOptimizer permits Adam, AdamW {
  final float beta1;
  final float beta2;
  final float epsilon;

  MomentOptimizer(String name, String[] keys, MomentsBuilder<?> b) {
    super(name, keys, b);
    this.beta1 = b.beta1;
    this.beta2 = b.beta2;
    this.epsilon = b.epsilon;
  }

  /** The first-moment decay rate β1. */
  public float beta1() {
    return beta1;
  }

  /** The second-moment decay rate β2. */
  public float beta2() {
    return beta2;
  }

  /** The ε added to {@code sqrt(v)}. */
  public float epsilon() {
    return epsilon;
  }

  /** Adam's bias correction at step {@code t} (1 for the first): {@code sqrt(1-β2^t)/(1-β1^t)}. */
  double biasCorrection(long t) {
    return Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
  }
}
