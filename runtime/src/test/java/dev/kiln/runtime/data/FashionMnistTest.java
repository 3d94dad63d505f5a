package dev.kiln.runtime.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {
  private static final String TRAIN_IMAGES = "train-images-idx3-ubyte";
  private static final String TRAIN_LABELS = "train-labels-idx1-ubyte";
  private static final String TEST_IMAGES = "t10k-images-idx3-ubyte";
  private static final String TEST_LABELS = "t10k-labels-idx1-ubyte";

  @TempDir Path dir;

  /** Writes a small, valid Fashion-MNIST directory: 5 training and 3 test examples. */
  private void writeValidFiles() {
    IdxFiles.write(dir.resolve(TRAIN_IMAGES + ".gz"), IdxFiles.images(5, 28, 28), true);
    IdxFiles.write(dir.resolve(TRAIN_LABELS), IdxFiles.labels(0, 9, 3, 3, 1), false);
    IdxFiles.write(dir.resolve(TEST_IMAGES), IdxFiles.images(3, 28, 28), false);
    IdxFiles.write(dir.resolve(TEST_LABELS + ".gz"), IdxFiles.labels(8, 0, 5), true);
  }

  private static void assertMessageContains(Exception e, String... parts) {
    for (String part : parts) {
      assertTrue(
          e.getMessage().contains(part),
          () -> "message \"" + e.getMessage() + "\" should contain \"" + part + "\"");
    }
  }

  private static void assertSane(Dataset dataset, int size) {
    assertEquals(size, dataset.size());
    assertEquals(784, dataset.featureSize());
    assertEquals(10, dataset.numClasses());
    for (int label : dataset.labels()) {
      assertTrue(label >= 0 && label < 10, "label " + label);
    }
    for (float feature : dataset.features()) {
      assertTrue(feature >= 0f && feature <= 1f, "feature " + feature);
    }
  }

  @Test
  void loadsPlainAndGzippedFiles() throws Exception {
    writeValidFiles();

    FashionMnist data = FashionMnist.load(dir);

    assertSane(data.train(), 5);
    assertSane(data.test(), 3);
    assertEquals(9, data.train().label(1));
    assertEquals(5, data.test().label(2));
    float[] features = data.train().features();
    assertEquals(0f, features[0]);
    assertEquals(1f / 255, features[1]);
    assertEquals(1f, features[255]);
    assertEquals(0f, features[256]);
  }

  @Test
  void prefersThePlainFile() throws Exception {
    writeValidFiles();
    Files.write(dir.resolve(TEST_IMAGES + ".gz"), new byte[] {1, 2, 3});

    assertEquals(3, FashionMnist.load(dir).test().size());
  }

  @Test
  void classNames() {
    assertEquals(10, FashionMnist.CLASS_NAMES.size());
    assertEquals("T-shirt/top", FashionMnist.className(0));
    assertEquals("Ankle boot", FashionMnist.className(9));
  }

  @Test
  void missingDirectorySaysHowToInstall() {
    Path missing = dir.resolve("nowhere");

    DatasetNotFoundException e =
        assertThrows(DatasetNotFoundException.class, () -> FashionMnist.load(missing));

    String expected =
        "Fashion-MNIST not found in %s (missing train-images-idx3-ubyte or"
            + " train-images-idx3-ubyte.gz). Install it with `apt-get install"
            + " dataset-fashion-mnist` (files land in /usr/share/datasets/fashion-mnist) or pass"
            + " --data DIR pointing at the four IDX files.";
    assertEquals(String.format(expected, missing), e.getMessage());
  }

  @Test
  void missingFileIsNamed() throws IOException {
    writeValidFiles();
    Files.delete(dir.resolve(TEST_LABELS + ".gz"));

    DatasetNotFoundException e =
        assertThrows(DatasetNotFoundException.class, () -> FashionMnist.load(dir));

    assertMessageContains(
        e,
        "missing t10k-labels-idx1-ubyte or t10k-labels-idx1-ubyte.gz",
        "apt-get install dataset-fashion-mnist",
        "--data DIR");
  }

  @Test
  void rejectsCountMismatch() {
    writeValidFiles();
    Path labels = IdxFiles.write(dir.resolve(TRAIN_LABELS), IdxFiles.labels(0, 1, 2, 3), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> FashionMnist.load(dir));

    assertMessageContains(e, "holds 5 images but " + labels + " holds 4 labels");
  }

  @Test
  void rejectsLabelOutOfRange() {
    writeValidFiles();
    Path labels = IdxFiles.write(dir.resolve(TRAIN_LABELS), IdxFiles.labels(0, 1, 10, 3, 4), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> FashionMnist.load(dir));

    assertMessageContains(e, labels + ": expected labels in [0, 9], found 10 at index 2");
  }

  @Test
  void rejectsWrongImageSize() {
    writeValidFiles();
    Path images = IdxFiles.write(dir.resolve(TEST_IMAGES), IdxFiles.images(3, 27, 28), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> FashionMnist.load(dir));

    assertMessageContains(e, images + ": expected 28x28 images, found 27x28");
  }

  @Test
  void loadsTheInstalledDataset() throws Exception {
    assumeTrue(
        Files.isDirectory(FashionMnist.DEFAULT_DIR),
        FashionMnist.DEFAULT_DIR + " is absent; install dataset-fashion-mnist to run this test");

    FashionMnist data = FashionMnist.load();

    assertSane(data.train(), 60000);
    assertSane(data.test(), 10000);
  }
}
