package dev.kiln.runtime;

/** The moment hyper-parameters Adam and AdamW share, checked as they are set. */
final class Moments {
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float epsilon = 1e-8f;

  void beta1(float value) {
    beta1 = FusedOptimizer.checkUnitInterval("beta1", value);
  }

  void beta2(float value) {
    beta2 = FusedOptimizer.checkUnitInterval("beta2", value);
  }

  void epsilon(float value) {
    if (!(value > 0) || !Float.isFinite(value)) {
      throw new IllegalArgumentException("epsilon must be positive and finite, got " + value);
    }
    epsilon = value;
  }

  /** Adam's bias correction at step {@code t} (1 for the first): {@code sqrt(1-β2^t)/(1-β1^t)}. */
  static double biasCorrection(float beta1, float beta2, long t) {
    return Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
  }
}
