package dev.kiln.bench;

import java.util.Locale;

/**
 * What the throughput part trains: a Fashion-MNIST classifier, at the batch sizes the benchmark
 * measures it at. Every implementation of a workload gets the same batches, as {@code float[]}
 * pixels (row-major, 784 a picture, the same values whatever the input's shape) and {@code int[]}
 * labels, and converts them inside its timed step.
 */
enum Workload {
  /** {@code FashionMlp}: 784-128 relu-10, at batch 32 and 256. */
  MLP("MLP 784-128-10", new int[] {784}, 32, 256),
  /** {@code FashionLeNet}: two 5x5 convolutions of 20 and 50 filters, at batch 64. */
  LENET("LeNet 20/50 filters", new int[] {1, 28, 28}, 64),
  /** {@link LeNet1632}: two 5x5 convolutions of 16 and 32 filters, at batch 64. */
  LENET1632("LeNet 16/32 filters", new int[] {1, 28, 28}, 64),
  /** {@code FashionLstm}: 28 steps of 28 pixels, LSTM 128, last step, dense 10, at batch 64. */
  LSTM("LSTM 128 over 28 rows", new int[] {28, 28}, 64),
  /**
   * {@code FashionVit}: 16 patches of 7x7, four transformer encoder blocks of width 64 with 4
   * heads, at batch 64.
   */
  VIT("ViT: 16 patches, 4 blocks of width 64, 4 heads", new int[] {1, 28, 28}, 64);

  private final String description;
  private final int[] example;
  private final int[] batches;

  Workload(String description, int[] example, int... batches) {
    this.description = description;
    this.example = example;
    this.batches = batches;
  }

  /** The lower-case name used on the command line and in tables. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What the model is, in a few words. */
  String description() {
    return description;
  }

  /** The batch sizes measured. */
  int[] batches() {
    return batches.clone();
  }

  /** The shape of one batch of {@code batch} examples. */
  long[] inputShape(int batch) {
    long[] s = new long[example.length + 1];
    s[0] = batch;
    for (int i = 0; i < example.length; i++) {
      s[i + 1] = example[i];
    }
    return s;
  }

  /** The workload called {@code label} (any case). */
  static Workload of(String label) {
    return valueOf(label.toUpperCase(Locale.ROOT));
  }
}
