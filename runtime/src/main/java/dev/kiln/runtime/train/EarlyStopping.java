package dev.kiln.runtime.train;

/**
 * Stops training when the validation loss has not improved by at least {@code minDelta} for {@code
 * patience} epochs in a row. Without a validation set it watches the training loss.
 */
public final class EarlyStopping implements TrainingListener {
  private final int patience;
  private final double minDelta;
  private double best = Double.POSITIVE_INFINITY;
  private int bestEpoch;
  private int stale;

  /** Stops after {@code patience} epochs without an improvement of {@code minDelta}. */
  public EarlyStopping(int patience, double minDelta) {
    if (patience < 1) {
      throw new IllegalArgumentException("patience must be at least 1, got " + patience);
    }
    if (!(minDelta >= 0)) {
      throw new IllegalArgumentException("minDelta must be >= 0, got " + minDelta);
    }
    this.patience = patience;
    this.minDelta = minDelta;
  }

  @Override
  public void onEpochEnd(FitContext context, EpochStats epoch) {
    double loss = epoch.validation() != null ? epoch.validation().loss() : epoch.trainLoss();
    if (loss < best - minDelta) {
      best = loss;
      bestEpoch = epoch.epoch();
      stale = 0;
    } else if (++stale >= patience) {
      context.stop(
          String.format(
              java.util.Locale.ROOT,
              "no improvement for %d epoch%s (best loss %.4f at epoch %d)",
              patience,
              patience == 1 ? "" : "s",
              best,
              bestEpoch));
    }
  }
}
