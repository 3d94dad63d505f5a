package dev.kiln.runtime.infer;

import java.util.List;

/**
 * How {@link Quantizer} makes an int8 model.
 *
 * @param calibration how each quantised layer's output range is chosen from the calibration batches
 * @param batches how many calibration batches to run (at most: fewer if the data runs out)
 * @param batchSize examples per calibration batch
 * @param excluded node names (of the model's graph, e.g. {@code conv1}, or of MXNet's fused graph,
 *     e.g. {@code sg_mkldnn_conv_bn_act_0}) that stay in float32: a fused node is excluded when any
 *     node it stands for is named
 */
public record QuantizeOptions(
    Calibration calibration, int batches, int batchSize, List<String> excluded) {
  /** How output ranges are calibrated. */
  public enum Calibration {
    /** The smallest and largest value seen: nothing clips, small values lose resolution. */
    MIN_MAX,
    /**
     * The symmetric threshold whose int8 histogram is closest to the float one in KL divergence
     * (MXNet's {@code _contrib_calibrate_entropy} over an 8001-bin histogram): outliers clip.
     */
    ENTROPY
  }

  /** Checks the counts and copies the list. */
  public QuantizeOptions {
    if (batches < 1 || batchSize < 1) {
      throw new IllegalArgumentException(
          "calibration needs at least one batch of at least one example, got "
              + batches
              + " batches of "
              + batchSize);
    }
    excluded = List.copyOf(excluded);
  }

  /** Entropy calibration over 10 batches of 64, nothing excluded. */
  public static QuantizeOptions defaults() {
    return new QuantizeOptions(Calibration.ENTROPY, 10, 64, List.of());
  }

  /** These options with {@code calibration}. */
  public QuantizeOptions with(Calibration c) {
    return new QuantizeOptions(c, batches, batchSize, excluded);
  }

  /** These options with {@code n} calibration batches. */
  public QuantizeOptions withBatches(int n) {
    return new QuantizeOptions(calibration, n, batchSize, excluded);
  }

  /** These options with the nodes {@code names} kept in float32. */
  public QuantizeOptions excluding(List<String> names) {
    return new QuantizeOptions(calibration, batches, batchSize, names);
  }
}
