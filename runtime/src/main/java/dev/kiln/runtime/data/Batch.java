package dev.kiln.runtime.data;

import java.util.Objects;

/**
 * One mini-batch of labelled examples, freshly allocated by {@link Dataset#batches}: the caller
 * owns both arrays and may modify them.
 *
 * <p>As with any record holding arrays, {@code equals} and {@code hashCode} compare the arrays by
 * identity, not by content.
 *
 * @param features {@code size() * featureSize()} floats, one example after the other, row-major
 * @param labels one class index per example
 */
public record Batch(float[] features, int[] labels) {

  /**
   * Checks that the arrays are non-null, that the batch is non-empty and that the features divide
   * evenly into one row per label.
   *
   * @param features {@code size() * featureSize()} floats, one example after the other, row-major
   * @param labels one class index per example
   * @throws IllegalArgumentException if the shapes do not agree
   */
  public Batch {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    if (labels.length == 0) {
      throw new IllegalArgumentException("batch is empty");
    }
    if (features.length % labels.length != 0) {
      throw new IllegalArgumentException(
          features.length + " features do not divide into " + labels.length + " examples");
    }
  }

  /**
   * Returns the number of examples in this batch.
   *
   * @return the number of labels
   */
  public int size() {
    return labels.length;
  }

  /**
   * Returns the number of floats in one example.
   *
   * @return {@code features().length / size()}
   */
  public int featureSize() {
    return features.length / labels.length;
  }

  /**
   * Returns the labels as floats, the form MXNet label arrays take.
   *
   * @return a new array with one float per label
   */
  public float[] labelsAsFloat() {
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
    return "Batch[size=" + size() + ", featureSize=" + featureSize() + "]";
  }
}
