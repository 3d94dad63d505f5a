package dev.kiln.runtime;

/** What Adam and AdamW compute alike. */
final class Moments {
  private Moments() {}

  /** Adam's bias correction at step {@code t} (1 for the first): {@code sqrt(1-β2^t)/(1-β1^t)}. */
  static double biasCorrection(float beta1, float beta2, long t) {
    return Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
  }
}
