package dev.kiln.sample.bench;

/** The training loops the benchmark compares. */
enum Impl {
  /** Hand-written MXNet C API calls: one executor bound once, {@code sgd_update} per weight. */
  FLOOR("floor"),
  /**
   * The generated {@code FashionMlpModel}'s classifier, as a Kiln user writes it for speed: {@code
   * trainStep}, which reads nothing back.
   */
  KILN("kiln"),
  /** DJL's {@code Trainer} on its MXNet engine with {@code EasyTrain.trainBatch}. */
  DJL("djl"),
  /** Kiln's {@code trainBatch}, which also returns each batch's loss and accuracy. */
  KILN_LOSS("kiln+loss");

  private final String label;

  Impl(String label) {
    this.label = label;
  }

  /** The lower-case name used on the command line and in tables. */
  String label() {
    return label;
  }

  /** A new loop of this kind for {@code batch} examples per step, seeded by {@code seed}. */
  TrainLoop open(int batch, long seed) {
    return switch (this) {
      case FLOOR -> new FloorLoop(batch, seed);
      case KILN -> new KilnLoop(seed, false);
      case KILN_LOSS -> new KilnLoop(seed, true);
      case DJL -> new DjlLoop(batch);
    };
  }

  /** The implementation called {@code label}. */
  static Impl of(String label) {
    for (Impl i : values()) {
      if (i.label.equals(label)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no implementation '" + label + "'");
  }
}
