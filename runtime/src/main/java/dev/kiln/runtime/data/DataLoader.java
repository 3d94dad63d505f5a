package dev.kiln.runtime.data;

/**
 * How a training loop walks a {@link Dataset}: in mini-batches of {@link #batchSize()} (the last
 * partial batch included), shuffled with a seed or in order. Each epoch gets its own order, derived
 * from the seed and the epoch number, so a seeded run visits the same batches on every run.
 *
 * <p>A loader can also walk one worker's shard of the data with a fixed number of full batches per
 * epoch ({@link #shard}): data-parallel workers must all run the same number of steps, or the
 * synchronous ones wait for ever.
 *
 * @param dataset the examples
 * @param batchSize examples per batch, at least 1
 * @param shuffle whether each epoch visits the examples in a fresh random order
 * @param seed the seed of the shuffling
 * @param steps batches per epoch when fixed (each full, wrapping around the order), 0 for every
 *     example once with the last partial batch
 */
public record DataLoader(Dataset dataset, int batchSize, boolean shuffle, long seed, int steps) {
  /** Validates the batch size and steps. */
  public DataLoader {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
    }
    if (steps < 0) {
      throw new IllegalArgumentException("steps must be at least 0, got " + steps);
    }
  }

  /** Batches of {@code batchSize} in the dataset's own order. */
  public static DataLoader of(Dataset dataset, int batchSize) {
    return new DataLoader(dataset, batchSize, false, 0, 0);
  }

  /** The same loader, shuffling every epoch from {@code seed}. */
  public DataLoader shuffled(long seed) {
    return new DataLoader(dataset, batchSize, true, seed, steps);
  }

  /**
   * The loader of worker {@code rank}'s shard of {@code workers}: a contiguous part of the data
   * (sizes differ by at most one example), shuffled within itself when this loader shuffles (from a
   * seed of its own), in the same number of full batches on every worker, {@code ceil(ceil(size /
   * workers) / batchSize)}, wrapping around the shard's order.
   */
  public DataLoader shard(int rank, int workers) {
    if (workers < 1 || rank < 0 || rank >= workers) {
      throw new IllegalArgumentException("rank must be in [0, " + workers + "), got " + rank);
    }
    int n = dataset.size();
    if (n < workers) {
      throw new IllegalArgumentException(
          "a dataset of " + n + " examples cannot be shared by " + workers + " workers");
    }
    int from = (int) ((long) rank * n / workers);
    int to = (int) ((long) (rank + 1) * n / workers);
    int largest = (n + workers - 1) / workers;
    int fixed = (largest + batchSize - 1) / batchSize;
    return new DataLoader(dataset.subset(from, to), batchSize, shuffle, seed * 31 + rank, fixed);
  }

  /** Examples per epoch. */
  public int examplesPerEpoch() {
    return steps == 0 ? dataset.size() : steps * batchSize;
  }

  /** Batches per epoch (the last partial batch included when {@code steps} is 0). */
  public int batchesPerEpoch() {
    return steps == 0 ? dataset.batchCount(batchSize) : steps;
  }

  /** The batches of epoch {@code epoch} (1-based). */
  public Iterable<Batch> epoch(int epoch) {
    long epochSeed = seed * 1_000_003L + epoch;
    if (steps == 0) {
      return dataset.batches(batchSize, shuffle, epochSeed);
    }
    return dataset.fullBatches(batchSize, steps, shuffle, epochSeed);
  }
}
