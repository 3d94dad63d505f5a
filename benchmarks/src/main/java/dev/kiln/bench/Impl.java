package dev.kiln.bench;

import dev.kiln.runtime.Init;
import java.util.EnumSet;
import java.util.Set;

/** The training loops the benchmark compares. */
enum Impl {
  /** Hand-written MXNet C API calls: one executor bound once, {@code sgd_update} per weight. */
  FLOOR("floor"),
  /**
   * The floor's executor running only {@code forward(is_train)} and {@code backward}: the kernel
   * limit with the update folded away.
   */
  FWD_BWD("fwd+bwd only"),
  /**
   * {@link #FWD_BWD} copying its batch in once, not every step: forward and backward alone, the
   * limit with neither the copy-in (a synchronous copy, which waits for the previous step's reads
   * of the input) nor the update.
   */
  FWD_BWD_NO_COPY("fwd+bwd, no copy-in"),
  /**
   * The generated model's classifier, as a Kiln user writes it for speed: {@code trainStep}, which
   * reads nothing back. Every update's gradients are checked to be finite (the default).
   */
  KILN("kiln"),
  /** Kiln's {@code trainBatch}, which also returns each batch's loss and accuracy. */
  KILN_LOSS("kiln+loss"),
  /** {@link #KILN} with the per-update gradient check off ({@code checkGradients(false)}). */
  KILN_NO_CHECK("kiln, no grad check"),
  /**
   * {@link #KILN} copying each batch in with MXNet's synchronous copy, as before issue 25, instead
   * of behind a write fence ({@code -Dkiln.inputFence=false} while its executors are bound).
   */
  KILN_SYNC_COPY("kiln, sync copy-in"),
  /** DJL's {@code Trainer} on its MXNet engine with {@code EasyTrain.trainBatch}. */
  DJL("djl"),
  /**
   * {@link #KILN} on the ViT with its attention written by hand as custom layers ({@link VitHand}:
   * four {@link AttentionHead}s and an {@code @Add} per block) instead of
   * {@code @MultiHeadAttention}.
   */
  KILN_HAND("kiln, hand-written attention");

  private final String label;

  Impl(String label) {
    this.label = label;
  }

  /** The name used on the command line and in tables. */
  String label() {
    return label;
  }

  /**
   * The implementations measured for {@code w}: the cheap extras only on the MLP; the ViT, which
   * has no hand-written floor, against DJL and its own attention written by hand.
   */
  static Set<Impl> of(Workload w) {
    return switch (w) {
      case MLP -> EnumSet.complementOf(EnumSet.of(KILN_HAND));
      case VIT -> EnumSet.of(KILN, KILN_HAND, DJL);
      default -> EnumSet.of(FLOOR, FWD_BWD, KILN, DJL);
    };
  }

  /** A new loop of this kind for {@code w} at {@code batch} examples a step. */
  TrainLoop open(Workload w, int batch, long seed) {
    return switch (this) {
      case FLOOR -> new FloorLoop(FloorApi.shared(), FloorNet.of(w), batch, seed, true);
      case FWD_BWD -> new FloorLoop(FloorApi.shared(), FloorNet.of(w), batch, seed, false);
      case FWD_BWD_NO_COPY ->
          new FloorLoop(FloorApi.shared(), FloorNet.of(w), batch, seed, false).copyOnce();
      case KILN -> new KilnLoop(w, seed, KilnLoop.Mode.STEP);
      case KILN_LOSS -> new KilnLoop(w, seed, KilnLoop.Mode.LOSS);
      case KILN_NO_CHECK -> new KilnLoop(w, seed, KilnLoop.Mode.STEP_UNCHECKED);
      case KILN_SYNC_COPY -> new KilnLoop(w, seed, KilnLoop.Mode.STEP_SYNC_COPY);
      case DJL -> new DjlLoop(w, batch);
      case KILN_HAND -> new KilnLoop(VitHandModel.create(Init.xavier(), seed));
    };
  }

  /** The implementation called {@code label}. */
  static Impl of(String label) {
    for (Impl i : values()) {
      if (i.label.equals(label) || i.name().equalsIgnoreCase(label)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no implementation '" + label + "'");
  }
}
