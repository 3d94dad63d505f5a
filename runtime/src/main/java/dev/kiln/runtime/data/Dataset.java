package dev.kiln.runtime.data;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Random;

/**
 * An in-memory dataset: {@link #size()} examples of {@link #featureSize()} floats each, stored
 * row-major in one array, with either one class index in {@code [0, numClasses())} per example (a
 * labelled dataset, for classifiers) or {@link #targetSize()} float targets per example ({@link
 * #withTargets}, for models with a loss head: a regression, an autoencoder's images).
 *
 * <p>A dataset does not copy the arrays it is given, and {@link #features()} and {@link #labels()}
 * return them as they are, so that a 60000-image training set is held once. Callers must not modify
 * them. Everything else ({@link #subset}, {@link #batches}) returns fresh copies.
 */
public final class Dataset {
  private final float[] features;
  private final int[] labels;
  private final int featureSize;
  private final int numClasses;
  private final float[] targets;
  private final int targetSize;

  /**
   * Creates a dataset over the given arrays, without copying them.
   *
   * @param features {@code labels.length * featureSize} floats, one example after the other
   * @param labels one class index per example, each in {@code [0, numClasses)}
   * @param featureSize the number of floats in one example
   * @param numClasses the number of classes
   * @throws IllegalArgumentException if the dataset is empty, if the sizes do not agree, if a label
   *     is out of range, or if a feature is NaN or infinite
   */
  public Dataset(float[] features, int[] labels, int featureSize, int numClasses) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    if (labels.length == 0) {
      throw new IllegalArgumentException("dataset is empty");
    }
    if (featureSize <= 0) {
      throw new IllegalArgumentException("featureSize must be positive, got " + featureSize);
    }
    if (numClasses <= 0) {
      throw new IllegalArgumentException("numClasses must be positive, got " + numClasses);
    }
    long expected = (long) labels.length * featureSize;
    if (features.length != expected) {
      throw new IllegalArgumentException(
          String.format(
              "expected %d examples of %d features (%d floats), got %d floats",
              labels.length, featureSize, expected, features.length));
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] < 0 || labels[i] >= numClasses) {
        throw new IllegalArgumentException(
            "label " + labels[i] + " at index " + i + " is outside [0, " + numClasses + ")");
      }
    }
    requireFinite(features, featureSize, "feature", "features");
    this.features = features;
    this.labels = labels;
    this.featureSize = featureSize;
    this.numClasses = numClasses;
    this.targets = null;
    this.targetSize = 0;
  }

  private Dataset(float[] features, int featureSize, float[] targets, int targetSize) {
    this.features = features;
    this.labels = null;
    this.featureSize = featureSize;
    this.numClasses = 0;
    this.targets = targets;
    this.targetSize = targetSize;
  }

  /**
   * A dataset of examples with float targets (what a model with a loss head trains on), over the
   * given arrays, without copying them.
   *
   * @param features {@code n * featureSize} floats, one example after the other
   * @param featureSize the number of floats in one example
   * @param targets {@code n * targetSize} floats, each example's target after the other
   * @param targetSize the number of target floats in one example
   * @throws IllegalArgumentException if the dataset is empty, if the sizes do not agree, or if a
   *     feature or target is NaN or infinite
   */
  public static Dataset withTargets(
      float[] features, int featureSize, float[] targets, int targetSize) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(targets, "targets");
    if (featureSize <= 0 || targetSize <= 0) {
      throw new IllegalArgumentException(
          "featureSize and targetSize must be positive, got " + featureSize + " and " + targetSize);
    }
    if (features.length == 0 || features.length % featureSize != 0) {
      throw new IllegalArgumentException(
          features.length
              + " features are not a whole, non-zero number of examples of "
              + featureSize);
    }
    int n = features.length / featureSize;
    if (targets.length != (long) n * targetSize) {
      throw new IllegalArgumentException(
          String.format(
              "%d examples of %d features need %d targets of %d floats (%d floats), got %d floats",
              n, featureSize, n, targetSize, (long) n * targetSize, targets.length));
    }
    requireFinite(features, featureSize, "feature", "features");
    requireFinite(targets, targetSize, "target", "targets");
    return new Dataset(features, featureSize, targets, targetSize);
  }

  private static void requireFinite(float[] values, int size, String what, String plural) {
    for (int i = 0; i < values.length; i++) {
      if (!Float.isFinite(values[i])) {
        throw new IllegalArgumentException(
            what
                + " "
                + (i % size)
                + " of example "
                + (i / size)
                + " is "
                + values[i]
                + "; a dataset's "
                + plural
                + " must be finite (a NaN or infinity would silently poison the weights)");
      }
    }
  }

  /** Whether the examples have float targets ({@link #withTargets}) rather than class labels. */
  public boolean hasTargets() {
    return targets != null;
  }

  /**
   * Returns all targets, row-major. This is the dataset's own array: do not modify it.
   *
   * @return {@code size() * targetSize()} floats
   * @throws IllegalStateException if the dataset has labels instead
   */
  public float[] targets() {
    if (targets == null) {
      throw new IllegalStateException("the dataset has class labels, not targets");
    }
    return targets;
  }

  /**
   * Returns the number of target floats in one example.
   *
   * @return the target size, or 0 for a labelled dataset
   */
  public int targetSize() {
    return targetSize;
  }

  /**
   * Returns the number of examples.
   *
   * @return the number of examples, at least 1
   */
  public int size() {
    return labels != null ? labels.length : features.length / featureSize;
  }

  /**
   * Returns the number of floats in one example.
   *
   * @return the feature size, for example 784 for a 28x28 image
   */
  public int featureSize() {
    return featureSize;
  }

  /**
   * Returns the number of classes.
   *
   * @return the number of classes; every label is below it (0 for a dataset with targets)
   */
  public int numClasses() {
    return numClasses;
  }

  /**
   * Returns all features, row-major. This is the dataset's own array: do not modify it.
   *
   * @return {@code size() * featureSize()} floats
   */
  public float[] features() {
    return features;
  }

  /**
   * Returns all labels. This is the dataset's own array: do not modify it.
   *
   * @return {@code size()} class indices
   */
  public int[] labels() {
    requireLabels();
    return labels;
  }

  private void requireLabels() {
    if (labels == null) {
      throw new IllegalStateException("the dataset has targets, not class labels");
    }
  }

  /**
   * Returns the label of one example.
   *
   * @param index the example, in {@code [0, size())}
   * @return its class index
   */
  public int label(int index) {
    requireLabels();
    return labels[Objects.checkIndex(index, labels.length)];
  }

  /**
   * Returns a copy of the examples in {@code [from, to)}.
   *
   * @param from the first example, inclusive
   * @param to the last example, exclusive
   * @return a new dataset of {@code to - from} examples with the same feature size and classes
   * @throws IllegalArgumentException unless {@code 0 <= from < to <= size()}
   */
  public Dataset subset(int from, int to) {
    if (from < 0 || to > size() || from >= to) {
      throw new IllegalArgumentException(
          "subset [" + from + ", " + to + ") is not a non-empty range within [0, " + size() + ")");
    }
    float[] f = Arrays.copyOfRange(features, from * featureSize, to * featureSize);
    if (targets != null) {
      return new Dataset(
          f,
          featureSize,
          Arrays.copyOfRange(targets, from * targetSize, to * targetSize),
          targetSize);
    }
    return new Dataset(f, Arrays.copyOfRange(labels, from, to), featureSize, numClasses);
  }

  /**
   * Returns a copy of the first {@code n} examples, or of all of them if there are fewer.
   *
   * @param n the number of examples wanted, at least 1
   * @return a new dataset of {@code min(n, size())} examples
   * @throws IllegalArgumentException if {@code n} is not positive
   */
  public Dataset first(int n) {
    if (n <= 0) {
      throw new IllegalArgumentException("n must be positive, got " + n);
    }
    return subset(0, Math.min(n, size()));
  }

  /**
   * Returns the number of batches {@link #batches} yields, the last partial batch included.
   *
   * @param batchSize the number of examples per batch, at least 1
   * @return {@code ceil(size() / batchSize)}
   * @throws IllegalArgumentException if {@code batchSize} is not positive
   */
  public int batchCount(int batchSize) {
    checkBatchSize(batchSize);
    return (size() + batchSize - 1) / batchSize;
  }

  /**
   * Returns the dataset in mini-batches. Every example appears in exactly one batch; all batches
   * hold {@code batchSize} examples except possibly the last, which holds the rest. When {@code
   * shuffle} is true the order is a Fisher-Yates permutation drawn from {@code new Random(seed)},
   * so the same seed gives the same order; otherwise the order is the dataset's. Each call to
   * {@code iterator()} starts over with the same order, and each batch is freshly allocated.
   *
   * @param batchSize the number of examples per batch, at least 1
   * @param shuffle whether to visit the examples in a random order
   * @param seed the seed of the permutation; ignored when {@code shuffle} is false
   * @return the batches, {@link #batchCount(int)} of them
   * @throws IllegalArgumentException if {@code batchSize} is not positive
   */
  public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed) {
    checkBatchSize(batchSize);
    return () -> new BatchIterator(order(shuffle, seed), batchSize);
  }

  /**
   * Returns {@code count} full batches of {@code batchSize}, walking the dataset (in a random order
   * when {@code shuffle}) and wrapping around to its start as often as needed.
   *
   * @param batchSize the number of examples per batch, at least 1
   * @param count the number of batches, at least 1
   * @param shuffle whether to visit the examples in a random order
   * @param seed the seed of the permutation; ignored when {@code shuffle} is false
   * @return the batches
   */
  public Iterable<Batch> fullBatches(int batchSize, int count, boolean shuffle, long seed) {
    checkBatchSize(batchSize);
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1, got " + count);
    }
    int[] base = order(shuffle, seed);
    int[] order = new int[batchSize * count];
    for (int i = 0; i < order.length; i++) {
      order[i] = base[i % base.length];
    }
    return () -> new BatchIterator(order, batchSize);
  }

  /**
   * Returns a short description with the dataset's shape, not its contents.
   *
   * @return for example {@code "Dataset[size=60000, featureSize=784, numClasses=10]"}
   */
  @Override
  public String toString() {
    return targets != null
        ? String.format(
            "Dataset[size=%d, featureSize=%d, targetSize=%d]", size(), featureSize, targetSize)
        : String.format(
            "Dataset[size=%d, featureSize=%d, numClasses=%d]", size(), featureSize, numClasses);
  }

  private int[] order(boolean shuffle, long seed) {
    int[] order = new int[size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    if (shuffle) {
      Random random = new Random(seed);
      for (int i = order.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int swap = order[i];
        order[i] = order[j];
        order[j] = swap;
      }
    }
    return order;
  }

  private static void checkBatchSize(int batchSize) {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
    }
  }

  /** Walks a permutation of the examples, copying {@code batchSize} of them at a time. */
  private final class BatchIterator implements Iterator<Batch> {
    private final int[] order;
    private final int batchSize;
    private int next;

    BatchIterator(int[] order, int batchSize) {
      this.order = order;
      this.batchSize = batchSize;
    }

    @Override
    public boolean hasNext() {
      return next < order.length;
    }

    @Override
    public Batch next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      int count = Math.min(batchSize, order.length - next);
      float[] batchFeatures = new float[count * featureSize];
      int[] batchLabels = labels == null ? null : new int[count];
      float[] batchTargets = targets == null ? null : new float[count * targetSize];
      for (int i = 0; i < count; i++) {
        int example = order[next + i];
        System.arraycopy(
            features, example * featureSize, batchFeatures, i * featureSize, featureSize);
        if (labels != null) {
          batchLabels[i] = labels[example];
        } else {
          System.arraycopy(targets, example * targetSize, batchTargets, i * targetSize, targetSize);
        }
      }
      next += count;
      return labels != null
          ? new Batch(batchFeatures, batchLabels)
          : Batch.ofTargets(batchFeatures, batchTargets, count);
    }
  }
}
