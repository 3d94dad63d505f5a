package dev.kiln.runtime.data;

import java.util.Objects;

/**
 * One mini-batch of examples, freshly allocated by {@link Dataset#batches}: the caller owns the
 * arrays and may modify them. A classification batch has one class index per example ({@link
 * #labels()}); a batch of a dataset with targets has {@link #targetSize()} floats per example
 * ({@link #targets()}) instead, and no labels.
 *
 * <p>As with any record holding arrays, {@code equals} and {@code hashCode} compare the arrays by
 * identity, not by content.
 *
 * @param features {@code size() * featureSize()} floats, one example after the other, row-major
 * @param labels one class index per example, or null in a batch with targets
 * @param targets {@code size() * targetSize()} floats, row-major, or null in a batch with labels
 * @param size the number of examples, at least 1
 */
public record Batch(float[] features, int[] labels, float[] targets, int size) {

  /**
   * Checks that the batch is non-empty, has either labels or targets, and that the features (and
   * targets) divide evenly into one row per example.
   *
   * @throws IllegalArgumentException if the shapes do not agree
   */
  public Batch {
    Objects.requireNonNull(features, "features");
    if ((labels == null) == (targets == null)) {
      throw new IllegalArgumentException("a batch has either labels or targets");
    }
    if (size <= 0) {
      throw new IllegalArgumentException("batch is empty");
    }
    if (labels != null && labels.length != size) {
      throw new IllegalArgumentException(labels.length + " labels for " + size + " examples");
    }
    if (features.length % size != 0) {
      throw new IllegalArgumentException(
          features.length + " features do not divide into " + size + " examples");
    }
    if (targets != null && (targets.length % size != 0 || targets.length == 0)) {
      throw new IllegalArgumentException(
          targets.length + " targets do not divide into " + size + " examples");
    }
  }

  /**
   * A classification batch.
   *
   * @param features {@code size() * featureSize()} floats, one example after the other, row-major
   * @param labels one class index per example
   */
  public Batch(float[] features, int[] labels) {
    this(features, Objects.requireNonNull(labels, "labels"), null, labels.length);
  }

  /**
   * A batch of {@code size} examples with targets.
   *
   * @param features {@code size * featureSize()} floats, row-major
   * @param targets {@code size * targetSize()} floats, row-major
   * @param size the number of examples
   */
  public static Batch ofTargets(float[] features, float[] targets, int size) {
    return new Batch(features, null, Objects.requireNonNull(targets, "targets"), size);
  }

  /**
   * Returns the number of floats in one example.
   *
   * @return {@code features().length / size()}
   */
  public int featureSize() {
    return features.length / size;
  }

  /**
   * Returns the number of target floats in one example.
   *
   * @return {@code targets().length / size()}, or 0 in a batch with labels
   */
  public int targetSize() {
    return targets == null ? 0 : targets.length / size;
  }

  /**
   * Returns what a training graph's label variable holds: the labels as floats (the form MXNet
   * label arrays take), or the targets.
   *
   * @return a new array of labels, or the batch's own targets
   */
  public float[] labelsAsFloat() {
    if (targets != null) {
      return targets;
    }
    float[] result = new float[labels.length];
    for (int i = 0; i < labels.length; i++) {
      result[i] = labels[i];
    }
    return result;
  }

  /**
   * Returns a short description with the batch's shape, not its contents.
   *
   * @return for example {@code "Batch[size=64, featureSize=784]"}
   */
  @Override
  public String toString() {
    return "Batch[size="
        + size
        + ", featureSize="
        + featureSize()
        + (targets == null ? "" : ", targetSize=" + targetSize())
        + "]";
  }
}
