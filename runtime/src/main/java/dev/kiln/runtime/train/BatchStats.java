package dev.kiln.runtime.train;

/**
 * One training batch.
 *
 * @param epoch the epoch, from 1
 * @param batch the batch within the epoch, from 1
 * @param loss the batch's mean loss (a classifier's cross-entropy)
 * @param metric the batch's mean of the trainer's metric ({@link FitContext#metric()}: a
 *     classifier's fraction of correct predictions)
 * @param examples examples in the batch
 */
public record BatchStats(int epoch, int batch, double loss, double metric, int examples) {
  /** The metric, for a classifier its accuracy. */
  public double accuracy() {
    return metric;
  }
}
