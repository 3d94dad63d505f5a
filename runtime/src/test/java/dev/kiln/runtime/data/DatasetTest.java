package dev.kiln.runtime.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class DatasetTest {
  private static final int FEATURE_SIZE = 3;
  private static final int NUM_CLASSES = 4;

  /**
   * Returns a dataset of {@code size} examples where example {@code i} has the features {@code i},
   * {@code i + 0.25} and {@code i + 0.5} and the label {@code i % NUM_CLASSES}, so that a row of a
   * batch identifies its example.
   */
  private static Dataset dataset(int size) {
    float[] features = new float[size * FEATURE_SIZE];
    int[] labels = new int[size];
    for (int i = 0; i < size; i++) {
      for (int j = 0; j < FEATURE_SIZE; j++) {
        features[i * FEATURE_SIZE + j] = i + 0.25f * j;
      }
      labels[i] = i % NUM_CLASSES;
    }
    return new Dataset(features, labels, FEATURE_SIZE, NUM_CLASSES);
  }

  /** Returns the example indices a run of batches visits, checking each batch's contents. */
  private static List<Integer> visit(Iterable<Batch> batches) {
    List<Integer> order = new ArrayList<>();
    for (Batch batch : batches) {
      assertEquals(FEATURE_SIZE, batch.featureSize());
      assertEquals(batch.size() * FEATURE_SIZE, batch.features().length);
      for (int row = 0; row < batch.size(); row++) {
        int example = (int) batch.features()[row * FEATURE_SIZE];
        for (int j = 0; j < FEATURE_SIZE; j++) {
          assertEquals(example + 0.25f * j, batch.features()[row * FEATURE_SIZE + j]);
        }
        assertEquals(example % NUM_CLASSES, batch.labels()[row]);
        order.add(example);
      }
    }
    return order;
  }

  @Test
  void exposesShape() {
    Dataset dataset = dataset(5);

    assertEquals(5, dataset.size());
    assertEquals(FEATURE_SIZE, dataset.featureSize());
    assertEquals(NUM_CLASSES, dataset.numClasses());
    assertEquals(2, dataset.label(6 % 4));
    assertEquals("Dataset[size=5, featureSize=3, numClasses=4]", dataset.toString());
  }

  @Test
  void rejectsEmptyDataset() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Dataset(new float[0], new int[0], FEATURE_SIZE, NUM_CLASSES));

    assertEquals("dataset is empty", e.getMessage());
  }

  @Test
  void rejectsFeatureCountMismatch() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Dataset(new float[7], new int[2], FEATURE_SIZE, NUM_CLASSES));

    assertEquals("expected 2 examples of 3 features (6 floats), got 7 floats", e.getMessage());
  }

  @Test
  void rejectsLabelOutOfRange() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Dataset(new float[9], new int[] {0, 3, 4}, FEATURE_SIZE, NUM_CLASSES));

    assertEquals("label 4 at index 2 is outside [0, 4)", e.getMessage());
  }

  @Test
  void rejectsANonFiniteFeatureNamingExampleAndFeature() {
    float[] x = new float[9];
    x[7] = Float.NaN;
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Dataset(x, new int[] {0, 1, 2}, FEATURE_SIZE, NUM_CLASSES));
    assertEquals(
        "feature 1 of example 2 is NaN; a dataset's features must be finite (a NaN or "
            + "infinity would silently poison the weights)",
        e.getMessage());
    x[7] = Float.NEGATIVE_INFINITY;
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Dataset(x, new int[] {0, 1, 2}, FEATURE_SIZE, NUM_CLASSES));
    assertTrue(e.getMessage().startsWith("feature 1 of example 2 is -Infinity"), e.getMessage());
  }

  @Test
  void rejectsNegativeLabel() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Dataset(new float[3], new int[] {-1}, FEATURE_SIZE, NUM_CLASSES));

    assertEquals("label -1 at index 0 is outside [0, 4)", e.getMessage());
  }

  @Test
  void subsetCopiesARange() {
    Dataset subset = dataset(10).subset(3, 7);

    assertEquals(4, subset.size());
    assertEquals(List.of(3, 4, 5, 6), visit(subset.batches(10, false, 0)));
  }

  @Test
  void subsetRejectsBadRanges() {
    Dataset dataset = dataset(10);

    assertThrows(IllegalArgumentException.class, () -> dataset.subset(-1, 3));
    assertThrows(IllegalArgumentException.class, () -> dataset.subset(3, 3));
    assertThrows(IllegalArgumentException.class, () -> dataset.subset(5, 11));
  }

  @Test
  void firstTakesAPrefixAndClampsToSize() {
    Dataset dataset = dataset(10);

    assertEquals(List.of(0, 1, 2), visit(dataset.first(3).batches(2, false, 0)));
    assertEquals(10, dataset.first(1000).size());
    assertThrows(IllegalArgumentException.class, () -> dataset.first(0));
  }

  @Test
  void batchesCoverEveryExampleOnceIncludingThePartialLastBatch() {
    Dataset dataset = dataset(10);

    for (boolean shuffle : new boolean[] {false, true}) {
      List<Integer> sizes = new ArrayList<>();
      dataset.batches(4, shuffle, 42).forEach(batch -> sizes.add(batch.size()));
      List<Integer> order = visit(dataset.batches(4, shuffle, 42));

      assertEquals(List.of(4, 4, 2), sizes);
      assertEquals(3, dataset.batchCount(4));
      assertEquals(10, order.size());
      assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), order.stream().sorted().toList());
    }
  }

  @Test
  void batchCountRoundsUp() {
    Dataset dataset = dataset(10);

    assertEquals(1, dataset.batchCount(10));
    assertEquals(1, dataset.batchCount(100));
    assertEquals(2, dataset.batchCount(9));
    assertEquals(10, dataset.batchCount(1));
    assertThrows(IllegalArgumentException.class, () -> dataset.batchCount(0));
    assertThrows(IllegalArgumentException.class, () -> dataset.batches(-1, false, 0));
  }

  @Test
  void unshuffledBatchesKeepTheDatasetOrder() {
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), visit(dataset(7).batches(3, false, 99)));
  }

  @Test
  void sameSeedGivesSameOrderAndDifferentSeedDifferentOrder() {
    Dataset dataset = dataset(100);

    List<Integer> first = visit(dataset.batches(8, true, 1));
    List<Integer> again = visit(dataset.batches(8, true, 1));
    List<Integer> other = visit(dataset.batches(8, true, 2));

    assertEquals(first, again);
    assertNotEquals(first, other);
    assertNotEquals(visit(dataset.batches(8, false, 1)), first);
  }

  @Test
  void iteratingTwiceRepeatsTheOrder() {
    Iterable<Batch> batches = dataset(50).batches(7, true, 5);

    assertEquals(visit(batches), visit(batches));
  }

  @Test
  void batchesAreIndependentCopies() {
    Dataset dataset = dataset(6);
    float[] before = dataset.features().clone();
    Iterator<Batch> batches = dataset.batches(3, false, 0).iterator();

    Batch first = batches.next();
    first.features()[0] = -1f;
    first.labels()[0] = -1;
    Batch second = batches.next();

    assertArrayEquals(before, dataset.features());
    assertEquals(0, dataset.label(0));
    assertEquals(3f, second.features()[0]);
    assertFalse(batches.hasNext());
    assertThrows(NoSuchElementException.class, batches::next);
  }

  @Test
  void labelsAsFloatConvertsEachLabel() {
    Batch batch = new Batch(new float[6], new int[] {0, 2, 9});

    assertArrayEquals(new float[] {0f, 2f, 9f}, batch.labelsAsFloat());
    assertEquals(2, batch.featureSize());
    assertEquals("Batch[size=3, featureSize=2]", batch.toString());
  }

  @Test
  void batchRejectsInconsistentShapes() {
    assertThrows(IllegalArgumentException.class, () -> new Batch(new float[0], new int[0]));
    assertThrows(IllegalArgumentException.class, () -> new Batch(new float[5], new int[2]));
  }
}
