package dev.kiln.runtime.data;

/**
 * How a training loop walks a {@link Dataset}: in mini-batches of {@link #batchSize()} (the last
 * partial batch included), shuffled with a seed or in order. Each epoch gets its own order,
 * derived from the seed and the epoch number, so a seeded run visits the same batches on every
 * run.
 *
 * @param dataset the examples
 * @param batchSize examples per batch, at least 1
 * @param shuffle whether each epoch visits the examples in a fresh random order
 * @param seed the seed of the shuffling
 */
public record DataLoader(Dataset dataset, int batchSize, boolean shuffle, long seed) {
  /** Validates the batch size. */
  public DataLoader {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
    }
  }

  /** Batches of {@code batchSize} in the dataset's own order. */
  public static DataLoader of(Dataset dataset, int batchSize) {
    return new DataLoader(dataset, batchSize, false, 0);
  }

  /** The same loader, shuffling every epoch from {@code seed}. */
  public DataLoader shuffled(long seed) {
    return new DataLoader(dataset, batchSize, true, seed);
  }

  /** Examples per epoch. */
  public int examplesPerEpoch() {
    return dataset.size();
  }

  /** Batches per epoch, the last partial batch included. */
  public int batchesPerEpoch() {
    return dataset.batchCount(batchSize);
  }

  /** The batches of epoch {@code epoch} (1-based). */
  public Iterable<Batch> epoch(int epoch) {
    return dataset.batches(batchSize, shuffle, seed * 1_000_003L + epoch);
  }
}
