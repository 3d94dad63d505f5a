package dev.kiln.runtime.train;

/**
 * Stops training as soon as a batch's loss is NaN or infinite, naming the epoch and batch: a
 * diverged run is not worth finishing, and MXNet lets non-finite values pass silently.
 */
public final class NanGuard implements TrainingListener {
  @Override
  public void onBatchEnd(FitContext context, BatchStats batch) {
    if (!Double.isFinite(batch.loss())) {
      context.stop(
          "loss is "
              + batch.loss()
              + " at epoch "
              + batch.epoch()
              + ", batch "
              + batch.batch()
              + ": training diverged (try a smaller learning rate)");
    }
  }
}
