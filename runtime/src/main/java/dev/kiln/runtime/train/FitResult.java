package dev.kiln.runtime.train;

import java.util.List;

/**
 * What a training run did.
 *
 * @param epochs every finished epoch, in order
 * @param stopReason why training ended early, or null when it ran every epoch
 */
public record FitResult(List<EpochStats> epochs, String stopReason) {
  /** Copies the list. */
  public FitResult {
    epochs = List.copyOf(epochs);
  }

  /** The last finished epoch, or null when none finished. */
  public EpochStats last() {
    return epochs.isEmpty() ? null : epochs.get(epochs.size() - 1);
  }
}
