package dev.kiln.runtime.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Plain SGD on a model's fused parameter array runs as a oneDNN inner product and a copy ({@link
 * ScaledAddStep}): it must give {@code sgd_update}'s weights to the bit, whatever the learning rate
 * does, and leave the gradients alone.
 */
class ScaledAddStepTest {
  private static final int N = 5000;

  /** A store of two parameters, fused into one array of 3000 + 2000 values. */
  private static ParameterStore store() {
    return new ParameterStore(
        List.of(
            new ParamSpec("a_weight", Shape.of(30, 100), "a", ParamSpec.Kind.WEIGHT),
            new ParamSpec("b_weight", Shape.of(2000), "b", ParamSpec.Kind.WEIGHT)));
  }

  private static float[] random(SplittableRandom rng, double scale) {
    float[] v = new float[N];
    for (int i = 0; i < N; i++) {
      v[i] = (float) (rng.nextGaussian() * scale);
    }
    return v;
  }

  /**
   * Steps {@code sgd} on the fused store and {@code sgd_update} on a plain copy with the same
   * gradients; every weight must agree to the bit after every step.
   */
  private static void sameAsSgdUpdate(Sgd sgd, float[] lrs, float rescale) {
    sameAsSgdUpdate(sgd, lrs, rescale, false);
    sameAsSgdUpdate(sgd, lrs, rescale, true);
  }

  /**
   * As above; with {@code keeping}, each step first keeps a copy of the weights, as the gradient
   * check does, and the step reads that copy instead of the weights; the copy must still hold the
   * weights from before the step.
   */
  private static void sameAsSgdUpdate(Sgd sgd, float[] lrs, float rescale, boolean keeping) {
    SplittableRandom rng = new SplittableRandom(7);
    float[] w0 = random(rng, 1);
    try (ParameterStore s = store();
        Tensor w = Tensor.zeros(Shape.of(N));
        Tensor g = Tensor.zeros(Shape.of(N))) {
      ParameterStore.Slot fused = s.fusedSlots().get(0);
      fused.weight().copyFrom(w0);
      w.copyFrom(w0);
      PreparedOp reference =
          new PreparedOp(
              "sgd_update",
              new NDArrayHandle[] {w.handle(), g.handle()},
              new NDArrayHandle[] {w.handle()});
      for (int t = 0; t < lrs.length; t++) {
        float[] grad = random(rng, 0.05);
        grad[t] = t % 2 == 0 ? 3e-39f : -1e30f; // a subnormal and a huge one
        fused.grad().copyFrom(grad);
        g.copyFrom(grad);
        sgd.schedule(LearningRate.constant(lrs[t]));
        float[] before = fused.weight().toFloatArray();
        java.util.Map<ParameterStore.Slot, Tensor> kept = java.util.Map.of();
        if (keeping) {
          kept = s.keepWeights();
          sgd.stepUndoably(s.fusedSlots(), kept);
        } else {
          sgd.step(s.fusedSlots());
        }
        reference.run(
            new String[] {"lr", "rescale_grad"},
            new String[] {Float.toString(lrs[t]), Float.toString(rescale)});
        float[] got = fused.weight().toFloatArray();
        float[] want = w.toFloatArray();
        for (int i = 0; i < N; i++) {
          assertEquals(
              Float.floatToIntBits(want[i]),
              Float.floatToIntBits(got[i]),
              "step " + (t + 1) + ", element " + i + ": " + want[i] + " vs " + got[i]);
        }
        assertEquals(grad[t], fused.grad().toFloatArray()[t], "the gradient is untouched");
        if (keeping) {
          float[] copy = kept.get(fused).toFloatArray();
          for (int i = 0; i < N; i++) {
            assertEquals(
                Float.floatToIntBits(before[i]),
                Float.floatToIntBits(copy[i]),
                "step " + (t + 1) + ", element " + i + ": the kept copy is the weights before it");
          }
        }
      }
    }
  }

  @Test
  void constantRateMatchesSgdUpdateToTheBit() {
    try (Sgd sgd = new Sgd(0.1f)) {
      sameAsSgdUpdate(sgd, new float[] {0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f}, 1f);
    }
  }

  @Test
  void aRateThatChangesMatchesSgdUpdateToTheBit() {
    // Changes every step, holds still, changes once, holds still again.
    try (Sgd sgd = new Sgd(0.3f)) {
      sameAsSgdUpdate(sgd, new float[] {0.3f, 0.2f, 0.1f, 0.1f, 0.1f, 0.07f, 0.07f, 0.07f}, 1f);
    }
  }

  @Test
  void rescaledGradientsMatchSgdUpdateToTheBit() {
    try (Sgd sgd = Sgd.builder().learningRate(0.1f).rescaleGrad(1f / 3).build()) {
      sameAsSgdUpdate(sgd, new float[] {0.1f, 0.1f, 0.1f, 0.1f}, 1f / 3);
    }
  }

  @Test
  void onlyOneDimensionalArraysTakeThisPath() {
    try (ParameterStore s = store()) {
      assertEquals(true, ScaledAddStep.fits(s.fusedSlots().get(0)));
      assertEquals(false, ScaledAddStep.fits(s.get("a_weight")));
    }
  }

  @Test
  void theOtherParametersOfTheFusedArrayStayIntact() {
    // The inner product reads a view of the gradient as its weight; oneDNN must not rewrite it.
    try (ParameterStore s = store();
        Sgd sgd = new Sgd(0.5f)) {
      ParameterStore.Slot fused = s.fusedSlots().get(0);
      float[] grad = random(new SplittableRandom(3), 1);
      fused.grad().copyFrom(grad);
      for (int t = 0; t < 4; t++) {
        sgd.step(s.fusedSlots());
      }
      float[] a = s.get("a_weight").grad().toFloatArray();
      float[] b = s.get("b_weight").grad().toFloatArray();
      for (int i = 0; i < 3000; i++) {
        assertEquals(grad[i], a[i], "a " + i);
      }
      for (int i = 0; i < 2000; i++) {
        assertEquals(grad[3000 + i], b[i], "b " + i);
      }
    }
  }
}
