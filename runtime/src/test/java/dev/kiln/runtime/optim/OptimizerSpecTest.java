package dev.kiln.runtime.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * An optimizer written as text and read back (as a job's servers get it) is the same optimizer: the
 * same text again, and bit for bit the same steps on real MXNet arrays.
 */
class OptimizerSpecTest {
  private static final float[] W0 = {1.0f, -2.0f, 0.5f, 3.0f, 0f, 1e-3f};
  private static final float[][] GRADS = {
    {0.5f, -1.0f, 2.0f, -0.25f, 1f, 0f},
    {-0.3f, 0.8f, 1.5f, 4.0f, -2f, 1e-4f},
    {1.2f, 0.1f, -2.5f, 0.6f, 0f, -7f},
  };

  private static final List<Supplier<FusedOptimizer>> OPTIMIZERS =
      List.of(
          () -> new Sgd(0.1f),
          () ->
              Sgd.builder()
                  .schedule(LearningRate.step(0.05f, 0.5f, 2))
                  .momentum(0.9f)
                  .nesterov(true)
                  .weightDecay(1e-4f)
                  .clipGradient(1.5f)
                  .build(),
          () ->
              Adam.builder()
                  .schedule(LearningRate.cosine(0.01f, 0.001f, 3).withWarmup(1))
                  .beta1(0.8f)
                  .beta2(0.99f)
                  .epsilon(1e-6f)
                  .rescaleGrad(0.25f)
                  .build(),
          () -> AdamW.builder().learningRate(3e-3f).weightDecay(0.01f).clipGlobalNorm(2f).build());

  @Test
  void textReadsBackToTheSameTextAndTheSameSteps() {
    for (Supplier<FusedOptimizer> make : OPTIMIZERS) {
      try (FusedOptimizer original = make.get()) {
        String text = OptimizerSpec.write(original);
        try (FusedOptimizer read = OptimizerSpec.read(text)) {
          assertEquals(text, OptimizerSpec.write(read));
          assertEquals(original.getClass(), read.getClass(), text);
          assertArrayEquals(steps(original), steps(read), text);
        }
      }
    }
  }

  @Test
  void aScheduleOfTheUsersOwnCannotBeWritten() {
    LearningRate own = step -> 0.1f / (1 + step);
    try (Sgd sgd = Sgd.builder().schedule(own).build()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> OptimizerSpec.write(sgd));
      assertTrue(
          e.getMessage()
              .contains(
                  "is not one of Kiln's own (constant, step, cosine, "
                      + "with or without warm-up)"),
          e.getMessage());
    }
  }

  @Test
  void malformedTextNamesWhatIsWrong() {
    assertEquals(
        "optimizer spec 'rmsprop schedule=constant:0.1': unknown optimizer 'rmsprop'; "
            + "expected sgd, adam or adamw",
        assertThrows(
                IllegalArgumentException.class,
                () -> OptimizerSpec.read("rmsprop schedule=constant:0.1"))
            .getMessage());
    assertEquals(
        "optimizer spec 'sgd schedule=constant:0.1' has no momentum",
        assertThrows(
                IllegalArgumentException.class,
                () -> OptimizerSpec.read("sgd schedule=constant:0.1"))
            .getMessage());
    String cut;
    try (Adam adam = new Adam()) {
      cut = OptimizerSpec.write(adam).replace("schedule=constant:0.001", "schedule=cosine:0.1");
    }
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> OptimizerSpec.read(cut))
            .getMessage()
            .contains("malformed schedule 'cosine:0.1'"),
        cut);
  }

  /** The weights after each of three steps, all concatenated. */
  private static float[] steps(FusedOptimizer optimizer) {
    try (ParameterStore s =
        new ParameterStore(
            List.of(new ParamSpec("p_weight", Shape.of(W0.length), "p", ParamSpec.Kind.WEIGHT)))) {
      ParameterStore.Slot slot = s.get("p_weight");
      slot.weight().copyFrom(W0);
      float[] all = new float[W0.length * GRADS.length];
      for (int i = 0; i < GRADS.length; i++) {
        slot.grad().copyFrom(GRADS[i]);
        optimizer.step(List.of(slot));
        System.arraycopy(slot.weight().toFloatArray(), 0, all, i * W0.length, W0.length);
      }
      return all;
    }
  }
}
