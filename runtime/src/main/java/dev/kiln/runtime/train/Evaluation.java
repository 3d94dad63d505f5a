package dev.kiln.runtime.train;

/**
 * Loss and metric of a model over a dataset.
 *
 * @param loss mean loss per example (a classifier's cross-entropy)
 * @param metric the mean of the trainer's metric (a classifier's fraction of examples whose most
 *     probable class is the label; see {@link FitContext#metric()})
 * @param examples examples evaluated
 */
public record Evaluation(double loss, double metric, int examples) {
  /** The metric, for a classifier its accuracy. */
  public double accuracy() {
    return metric;
  }
}
