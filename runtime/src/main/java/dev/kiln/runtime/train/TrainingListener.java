package dev.kiln.runtime.train;

/**
 * Hooks into a training loop ({@code Classifier.fit}). Every method has an empty default; a
 * listener can end training early through {@link FitContext#stop(String)}.
 */
public interface TrainingListener {
  /** Before the first batch. */
  default void onFitStart(FitContext context) {}

  /** After every training batch. */
  default void onBatchEnd(FitContext context, BatchStats batch) {}

  /** After every epoch, with its training and validation figures. */
  default void onEpochEnd(FitContext context, EpochStats epoch) {}

  /** After the last epoch, or after training stopped early; {@code result} says which. */
  default void onFitEnd(FitContext context, FitResult result) {}
}
