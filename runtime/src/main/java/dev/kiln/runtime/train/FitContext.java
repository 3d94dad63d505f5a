package dev.kiln.runtime.train;

/** What a training loop tells its listeners about itself, and how they can stop it. */
public final class FitContext {
  private final String model;
  private final int epochs;
  private final int batchesPerEpoch;
  private final int examplesPerEpoch;
  private final String metric;
  private String stopReason;

  /** A context for training the classifier {@code model} for {@code epochs} epochs. */
  public FitContext(String model, int epochs, int batchesPerEpoch, int examplesPerEpoch) {
    this(model, epochs, batchesPerEpoch, examplesPerEpoch, "accuracy");
  }

  /** A context for training {@code model}, whose trainer reports {@code metric}. */
  public FitContext(
      String model, int epochs, int batchesPerEpoch, int examplesPerEpoch, String metric) {
    this.model = model;
    this.epochs = epochs;
    this.batchesPerEpoch = batchesPerEpoch;
    this.examplesPerEpoch = examplesPerEpoch;
    this.metric = metric;
  }

  /**
   * The name of the metric the stats carry beside the loss: {@code accuracy} for a classifier,
   * {@code mse}, {@code mae} or {@code binary_accuracy} for a loss head, {@code none} for
   * {@code @Loss} (whose metric is the loss again).
   */
  public String metric() {
    return metric;
  }

  /** The model's name. */
  public String model() {
    return model;
  }

  /** Epochs planned. */
  public int epochs() {
    return epochs;
  }

  /** Training batches per epoch. */
  public int batchesPerEpoch() {
    return batchesPerEpoch;
  }

  /** Training examples per epoch. */
  public int examplesPerEpoch() {
    return examplesPerEpoch;
  }

  /** Asks the loop to stop after the current batch; the first reason given is kept. */
  public void stop(String reason) {
    if (stopReason == null) {
      stopReason = reason;
    }
  }

  /**
   * Stops training for {@code reason}, replacing an earlier reason: for a refused update found
   * after a listener had asked to stop, which matters more.
   */
  void overrideStop(String reason) {
    stopReason = reason;
  }

  /** Why training was asked to stop, or null. */
  public String stopReason() {
    return stopReason;
  }
}
