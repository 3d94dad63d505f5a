package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.mxnet.WriteFence;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.sample.models.FashionAutoencoderModel;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Training copies each batch straight into an executor's input and label arrays once a {@link
 * dev.kiln.runtime.mxnet.WriteFence} queued after their last reader has run (issue 25). A write
 * that raced a pass still reading the previous batch would train on a mix of two batches; so each
 * test trains twins from one seed on a different batch every step, one with the fences and one with
 * MXNet's synchronous copy ({@code -Dkiln.inputFence=false}, read when an executor is bound), and
 * requires every parameter and batch-norm statistic to agree to the bit. Without the gradient check
 * Java never waits for MXNet in a step and runs furthest ahead of it, where a race is likeliest.
 */
class InputFenceTest {
  private static final int STEPS = 60;
  private static final int BATCH = 16;

  private static float[] features(int k) {
    float[] x = new float[BATCH * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = ((i * 31 + k * 17) % 101) / 101f;
    }
    return x;
  }

  private static int[] labels(int k) {
    int[] y = new int[BATCH];
    for (int i = 0; i < BATCH; i++) {
      y[i] = (i * 7 + k * 3) % 10;
    }
    return y;
  }

  /** Every parameter and auxiliary state of {@code m}, in slot order. */
  private static List<float[]> state(KilnModel m) {
    List<float[]> out = new ArrayList<>();
    for (ParameterStore.Slot s : m.runtime().slots()) {
      out.add(m.runtime().param(s.name()).get());
    }
    for (ParameterStore.AuxSlot a : m.runtime().auxSlots()) {
      out.add(m.runtime().auxState(a.name()).get());
    }
    return out;
  }

  /** Trains a classifier from {@code create} with the fences on or off; returns its state. */
  private static List<float[]> classifier(
      Supplier<KilnModel> create, boolean fence, boolean checkGradients) {
    return withFence(
        fence,
        () -> {
          try (KilnModel m = create.get();
              Sgd sgd = new Sgd(0.05f)) {
            m.runtime().checkGradients(checkGradients);
            for (int k = 0; k < STEPS; k++) {
              m.classifier().trainStep(features(k), labels(k), sgd);
            }
            return state(m);
          }
        });
  }

  /**
   * Runs {@code training} with the fences on or off (the switch is read when executors bind, which
   * happens inside it), then puts the switch back as it was.
   */
  private static List<float[]> withFence(boolean fence, Supplier<List<float[]>> training) {
    String before = System.getProperty(WriteFence.SWITCH);
    System.setProperty(WriteFence.SWITCH, Boolean.toString(fence));
    try {
      return training.get();
    } finally {
      if (before == null) {
        System.clearProperty(WriteFence.SWITCH);
      } else {
        System.setProperty(WriteFence.SWITCH, before);
      }
    }
  }

  private static void assertSame(List<float[]> expected, List<float[]> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), 0f, "array " + i);
    }
  }

  @Test
  void theMlpTrainsTheSameWithAndWithoutFencesWhetherOrNotGradientsAreChecked() {
    for (boolean check : new boolean[] {false, true}) {
      Supplier<KilnModel> mlp = () -> FashionMlpModel.create(Init.xavier(), 3);
      assertSame(classifier(mlp, false, check), classifier(mlp, true, check));
    }
  }

  @Test
  void theLeNetWithBatchNormTrainsTheSameWithAndWithoutFences() {
    Supplier<KilnModel> lenet = () -> FashionLeNetModel.create(Init.xavier(), 3);
    assertSame(classifier(lenet, false, false), classifier(lenet, true, false));
  }

  /** A loss head's targets go through the label array too. */
  @Test
  void anAutoencoderTrainsTheSameWithAndWithoutFences() {
    List<List<float[]>> runs = new ArrayList<>();
    for (boolean fence : new boolean[] {false, true}) {
      runs.add(
          withFence(
              fence,
              () -> {
                try (FashionAutoencoderModel m = FashionAutoencoderModel.create(Init.xavier(), 3);
                    Sgd sgd = new Sgd(0.05f)) {
                  m.runtime().checkGradients(false);
                  for (int k = 0; k < STEPS / 2; k++) {
                    float[] x = features(k);
                    m.trainer().trainStep(x, x, BATCH, sgd);
                  }
                  return state(m);
                }
              }));
    }
    assertSame(runs.get(0), runs.get(1));
  }
}
