package dev.kiln.runtime.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Fashion-MNIST dataset: 28x28 grey-scale images of clothing in ten classes, 60000 for training
 * and 10000 for testing, read from the four IDX files of the original distribution.
 *
 * <p>Images become {@link Dataset}s of 784 features scaled from {@code [0, 255]} to {@code [0, 1]}.
 */
public final class FashionMnist {

  /** Where the {@code dataset-fashion-mnist} package installs the files. */
  public static final Path DEFAULT_DIR = Path.of("/usr/share/datasets/fashion-mnist");

  /** The height and width of every image, in pixels. */
  public static final int IMAGE_SIZE = 28;

  /** The number of features per example: {@code IMAGE_SIZE * IMAGE_SIZE}. */
  public static final int FEATURE_SIZE = IMAGE_SIZE * IMAGE_SIZE;

  /** The class names, indexed by label. */
  public static final List<String> CLASS_NAMES =
      List.of(
          "T-shirt/top",
          "Trouser",
          "Pullover",
          "Dress",
          "Coat",
          "Sandal",
          "Shirt",
          "Sneaker",
          "Bag",
          "Ankle boot");

  /** The number of classes. */
  public static final int NUM_CLASSES = CLASS_NAMES.size();

  private final Dataset train;
  private final Dataset test;

  private FashionMnist(Dataset train, Dataset test) {
    this.train = train;
    this.test = test;
  }

  /**
   * The first {@code n} images of the training set and the first {@code n} of the test set (all of
   * a set when it holds fewer).
   *
   * @param n how many images to keep of each set, at least 1
   * @return the smaller dataset
   */
  public FashionMnist first(int n) {
    return new FashionMnist(train.first(n), test.first(n));
  }

  /**
   * Loads Fashion-MNIST from {@link #DEFAULT_DIR}.
   *
   * @return the training and test sets
   * @throws DatasetNotFoundException if the directory or one of its files is missing
   * @throws IdxFormatException if a file is malformed or the files disagree
   * @throws IOException if a file cannot be read
   */
  public static FashionMnist load() throws IOException {
    return load(DEFAULT_DIR);
  }

  /**
   * Loads Fashion-MNIST from a directory holding {@code train-images-idx3-ubyte}, {@code
   * train-labels-idx1-ubyte}, {@code t10k-images-idx3-ubyte} and {@code t10k-labels-idx1-ubyte},
   * each plain or gzip-compressed with a {@code .gz} suffix (the plain file wins if both exist).
   *
   * @param dir the directory
   * @return the training and test sets
   * @throws DatasetNotFoundException if the directory or one of its files is missing; the message
   *     says how to install the data
   * @throws IdxFormatException if a file is malformed, an image is not 28x28, a label is not in
   *     {@code [0, 9]}, or an image file and its label file hold different numbers of examples
   * @throws IOException if a file cannot be read
   */
  public static FashionMnist load(Path dir) throws IOException {
    // Resolve all four files first, so that a missing one is reported before any slow reading.
    Path trainImages = find(dir, "train-images-idx3-ubyte");
    Path trainLabels = find(dir, "train-labels-idx1-ubyte");
    Path testImages = find(dir, "t10k-images-idx3-ubyte");
    Path testLabels = find(dir, "t10k-labels-idx1-ubyte");
    return new FashionMnist(read(trainImages, trainLabels), read(testImages, testLabels));
  }

  /**
   * Returns the 60000-example training set, the validation split included.
   *
   * @return the training set
   */
  public Dataset train() {
    return train;
  }

  /**
   * How many of {@code trainingImages} are held out for validation: a twelfth, at least 1 (the last
   * 5,000 of the 60,000), so a {@code --limit} keeps the proportion.
   */
  public static int validationSize(int trainingImages) {
    return Math.max(1, trainingImages / 12);
  }

  /**
   * The training images that are not held out for validation: all but the last {@link
   * #validationSize} (the first 55,000 of the full set). Models train on these.
   *
   * @return the training split
   * @throws IllegalStateException when the training set holds a single image
   */
  public Dataset trainSplit() {
    int kept = train.size() - validationSize(train.size());
    if (kept < 1) {
      throw new IllegalStateException(
          "the training set holds "
              + train.size()
              + " image, which leaves none to train on after holding one out for validation");
    }
    return train.subset(0, kept);
  }

  /**
   * The last {@link #validationSize} training images (the last 5,000 of the full set), held out of
   * training: the per-epoch validation, the learning-rate schedule and early stopping use these, so
   * the test set is measured once, at the end.
   *
   * @return the validation split
   */
  public Dataset validationSplit() {
    return train.subset(train.size() - validationSize(train.size()), train.size());
  }

  /**
   * Returns the 10000-example test set.
   *
   * @return the test set
   */
  public Dataset test() {
    return test;
  }

  /**
   * Returns the name of a class.
   *
   * @param label a class index in {@code [0, 9]}
   * @return its name, for example {@code "Ankle boot"} for 9
   * @throws IndexOutOfBoundsException if the label is out of range
   */
  public static String className(int label) {
    return CLASS_NAMES.get(label);
  }

  private static Path find(Path dir, String name) throws DatasetNotFoundException {
    Path plain = dir.resolve(name);
    if (Files.isRegularFile(plain)) {
      return plain;
    }
    Path gzip = dir.resolve(name + ".gz");
    if (Files.isRegularFile(gzip)) {
      return gzip;
    }
    throw new DatasetNotFoundException(
        String.format(
            "Fashion-MNIST not found in %s (missing %s or %s.gz). Install it with `apt-get install"
                + " dataset-fashion-mnist` (files land in %s) or pass --data DIR pointing at the"
                + " four IDX files.",
            dir, name, name, DEFAULT_DIR));
  }

  private static Dataset read(Path imageFile, Path labelFile) throws IOException {
    Idx.Images images = Idx.readImages(imageFile);
    if (images.rows() != IMAGE_SIZE || images.cols() != IMAGE_SIZE) {
      throw new IdxFormatException(
          String.format(
              "%s: expected %dx%d images, found %dx%d",
              imageFile, IMAGE_SIZE, IMAGE_SIZE, images.rows(), images.cols()));
    }
    int[] labels = Idx.readLabels(labelFile);
    if (labels.length != images.count()) {
      throw new IdxFormatException(
          String.format(
              "%s holds %d images but %s holds %d labels",
              imageFile, images.count(), labelFile, labels.length));
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] >= NUM_CLASSES) {
        throw new IdxFormatException(
            String.format(
                "%s: expected labels in [0, %d], found %d at index %d",
                labelFile, NUM_CLASSES - 1, labels[i], i));
      }
    }
    return new Dataset(images.scaledPixels(), labels, FEATURE_SIZE, NUM_CLASSES);
  }
}
