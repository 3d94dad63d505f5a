package dev.kiln.runtime.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Each optimizer's first steps on real MXNet arrays, against the documented formulas evaluated here
 * in double precision.
 */
class OptimizerTest {
  private static final double TOL = 2e-6;

  /** Starting weights: mixed signs and sizes. */
  private static final float[] W0 = {1.0f, -2.0f, 0.5f, 3.0f};

  /** One gradient per step. */
  private static final float[][] GRADS = {
    {0.5f, -1.0f, 2.0f, -0.25f},
    {-0.3f, 0.8f, 1.5f, 4.0f},
    {1.2f, 0.1f, -2.5f, 0.6f},
  };

  /** A store holding one parameter {@code p_weight} of shape [values.length] set to values. */
  private static ParameterStore store(float... values) {
    ParameterStore s =
        new ParameterStore(
            List.of(
                new ParamSpec("p_weight", Shape.of(values.length), "p", ParamSpec.Kind.WEIGHT)));
    s.get("p_weight").weight().copyFrom(values);
    return s;
  }

  private static ParameterStore.Slot slot(ParameterStore s) {
    return s.get("p_weight");
  }

  private static double[] doubles(float[] f) {
    double[] d = new double[f.length];
    for (int i = 0; i < f.length; i++) {
      d[i] = f[i];
    }
    return d;
  }

  private static double clip(double x, double bound) {
    return bound < 0 ? x : Math.max(-bound, Math.min(bound, x));
  }

  private static void assertClose(double[] expected, float[] actual, String what) {
    assertEquals(expected.length, actual.length, what);
    for (int i = 0; i < expected.length; i++) {
      double tol = TOL * Math.max(1, Math.abs(expected[i]));
      assertEquals(expected[i], actual[i], tol, what + "[" + i + "]");
    }
  }

  // --- SGD -------------------------------------------------------------------------------

  @Test
  void plainSgdAppliesRescaleAndWeightDecay() {
    double lr = 0.1;
    double wd = 0.01;
    double rescale = 0.5;
    try (ParameterStore s = store(W0);
        Sgd sgd = Sgd.builder().learningRate(0.1f).weightDecay(0.01f).rescaleGrad(0.5f).build()) {
      double[] w = doubles(W0);
      for (int t = 0; t < 2; t++) {
        slot(s).grad().copyFrom(GRADS[t]);
        sgd.step(s.slots());
        for (int i = 0; i < w.length; i++) {
          w[i] -= lr * (rescale * GRADS[t][i] + wd * w[i]);
        }
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + (t + 1));
      }
      assertEquals(List.of(), sgd.state(slot(s)), "plain SGD keeps no state");
      assertEquals(2, sgd.stepCount());
    }
  }

  @Test
  void momentumSgdKeepsAVelocityBuffer() {
    double lr = 0.1;
    double mu = 0.9;
    double wd = 0.05;
    try (ParameterStore s = store(W0);
        Sgd sgd = Sgd.builder().learningRate(0.1f).momentum(0.9f).weightDecay(0.05f).build()) {
      double[] w = doubles(W0);
      double[] m = new double[w.length];
      for (int t = 0; t < 3; t++) {
        slot(s).grad().copyFrom(GRADS[t]);
        sgd.step(s.slots());
        for (int i = 0; i < w.length; i++) {
          m[i] = mu * m[i] - lr * (GRADS[t][i] + wd * w[i]);
          w[i] += m[i];
        }
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + (t + 1));
        assertClose(m, sgd.state(slot(s)).get(0).toFloatArray(), "momentum after step " + (t + 1));
      }
    }
  }

  @Test
  void nesterovLooksAheadAlongTheVelocity() {
    checkNesterov(0f);
  }

  @Test
  void nesterovDecaysTheMomentumWithThePreStepWeight() {
    // MXNet's nag_mom_update run in place would use the updated weight here (m after step 1
    // would be -0.02973 instead of -0.03 in element 0).
    checkNesterov(0.1f);
  }

  private static void checkNesterov(float weightDecay) {
    double lr = 0.05;
    double mu = 0.8;
    double wd = weightDecay;
    try (ParameterStore s = store(W0);
        Sgd sgd =
            Sgd.builder()
                .learningRate(0.05f)
                .momentum(0.8f)
                .nesterov(true)
                .weightDecay(weightDecay)
                .build()) {
      double[] w = doubles(W0);
      double[] m = new double[w.length];
      double[] plainMomentum = doubles(W0);
      double[] pm = new double[w.length];
      for (int t = 0; t < 3; t++) {
        slot(s).grad().copyFrom(GRADS[t]);
        sgd.step(s.slots());
        for (int i = 0; i < w.length; i++) {
          double g = GRADS[t][i] + wd * w[i];
          m[i] = mu * m[i] - lr * g;
          w[i] += mu * m[i] - lr * g;
          double gp = GRADS[t][i] + wd * plainMomentum[i];
          pm[i] = mu * pm[i] - lr * gp;
          plainMomentum[i] += pm[i];
        }
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + (t + 1));
        assertEquals(1, sgd.state(slot(s)).size(), "state is the momentum alone");
        assertClose(m, sgd.state(slot(s)).get(0).toFloatArray(), "momentum after step " + (t + 1));
      }
      // Nesterov and plain momentum differ by much more than the tolerance.
      assertTrue(Math.abs(plainMomentum[3] - w[3]) > 1e-2, "Nesterov differs from momentum");
    }
  }

  @Test
  void sgdClipsTheRescaledGradientBeforeAddingWeightDecay() {
    double lr = 0.1;
    double wd = 0.1;
    double rescale = 2;
    double bound = 1.5;
    try (ParameterStore s = store(W0);
        Sgd sgd =
            Sgd.builder()
                .learningRate(0.1f)
                .momentum(0.5f)
                .weightDecay(0.1f)
                .rescaleGrad(2f)
                .clipGradient(1.5f)
                .build()) {
      double[] w = doubles(W0);
      double[] m = new double[w.length];
      for (int t = 0; t < 2; t++) {
        slot(s).grad().copyFrom(GRADS[t]);
        sgd.step(s.slots());
        for (int i = 0; i < w.length; i++) {
          m[i] = 0.5 * m[i] - lr * (clip(rescale * GRADS[t][i], bound) + wd * w[i]);
          w[i] += m[i];
        }
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + (t + 1));
      }
    }
  }

  // --- Adam ------------------------------------------------------------------------------

  @Test
  void adamMatchesMxnetPythonAdamWithBiasCorrection() {
    double lr = 0.1;
    double b1 = 0.9f;
    double b2 = 0.999f;
    double eps = 1e-8f;
    double wd = 0.02;
    try (ParameterStore s = store(W0);
        Adam adam = Adam.builder().learningRate(0.1f).weightDecay(0.02f).build()) {
      double[] w = doubles(W0);
      double[] m = new double[w.length];
      double[] v = new double[w.length];
      for (int t = 1; t <= 3; t++) {
        slot(s).grad().copyFrom(GRADS[t - 1]);
        adam.step(s.slots());
        double lrT = lr * Math.sqrt(1 - Math.pow(b2, t)) / (1 - Math.pow(b1, t));
        for (int i = 0; i < w.length; i++) {
          double g = GRADS[t - 1][i] + wd * w[i];
          m[i] = b1 * m[i] + (1 - b1) * g;
          v[i] = b2 * v[i] + (1 - b2) * g * g;
          w[i] -= lrT * m[i] / (Math.sqrt(v[i]) + eps);
        }
        List<Tensor> state = adam.state(slot(s));
        assertClose(m, state.get(0).toFloatArray(), "mean after step " + t);
        assertClose(v, state.get(1).toFloatArray(), "var after step " + t);
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + t);
      }
    }
  }

  @Test
  void adamFirstStepMovesEachWeightByAboutTheLearningRate() {
    // With bias correction the first step is lr · g / (|g| + eps·…) ≈ lr · sign(g); without it
    // it would be lr · 0.1 / sqrt(0.001) ≈ 3.16 · lr.
    try (ParameterStore s = store(W0);
        Adam adam = new Adam(0.01f)) {
      slot(s).grad().copyFrom(GRADS[0]);
      adam.step(s.slots());
      float[] w = slot(s).weight().toFloatArray();
      for (int i = 0; i < w.length; i++) {
        assertEquals(W0[i] - 0.01 * Math.signum(GRADS[0][i]), w[i], 1e-6, "w[" + i + "]");
      }
    }
  }

  @Test
  void adamClipsGradientPlusWeightDecay() {
    double lr = 0.01;
    double b1 = 0.5f;
    double b2 = 0.75f;
    double eps = 1e-3f;
    double wd = 0.5;
    double bound = 0.6;
    try (ParameterStore s = store(W0);
        Adam adam =
            Adam.builder()
                .learningRate(0.01f)
                .beta1(0.5f)
                .beta2(0.75f)
                .epsilon(1e-3f)
                .weightDecay(0.5f)
                .clipGradient(0.6f)
                .build()) {
      double[] w = doubles(W0);
      double[] m = new double[w.length];
      double[] v = new double[w.length];
      for (int t = 1; t <= 2; t++) {
        slot(s).grad().copyFrom(GRADS[t - 1]);
        adam.step(s.slots());
        double lrT = lr * Math.sqrt(1 - Math.pow(b2, t)) / (1 - Math.pow(b1, t));
        for (int i = 0; i < w.length; i++) {
          double g = clip(GRADS[t - 1][i] + wd * w[i], bound);
          m[i] = b1 * m[i] + (1 - b1) * g;
          v[i] = b2 * v[i] + (1 - b2) * g * g;
          w[i] -= lrT * m[i] / (Math.sqrt(v[i]) + eps);
        }
        assertClose(m, adam.state(slot(s)).get(0).toFloatArray(), "mean after step " + t);
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + t);
      }
    }
  }

  // --- AdamW -----------------------------------------------------------------------------

  @Test
  void adamwDecaysWeightsApartFromTheGradient() {
    double b1 = 0.9f;
    double b2 = 0.99f;
    double eps = 1e-6f;
    double wd = 0.1;
    double bound = 1.0;
    LearningRate schedule = LearningRate.step(0.05f, 0.5f, 2);
    try (ParameterStore s = store(W0);
        AdamW adamw =
            AdamW.builder()
                .schedule(schedule)
                .beta2(0.99f)
                .epsilon(1e-6f)
                .weightDecay(0.1f)
                .rescaleGrad(0.5f)
                .clipGradient(1f)
                .build()) {
      double[] w = doubles(W0);
      double[] m = new double[w.length];
      double[] v = new double[w.length];
      double rescale = 0.5;
      for (int t = 1; t <= 3; t++) {
        if (t == 3) {
          adamw.rescaleGrad(2f); // rewrites the operator's rescale array
          rescale = 2;
        }
        slot(s).grad().copyFrom(GRADS[t - 1]);
        adamw.step(s.slots());
        double lr = schedule.rate(t - 1);
        double c = Math.sqrt(1 - Math.pow(b2, t)) / (1 - Math.pow(b1, t));
        for (int i = 0; i < w.length; i++) {
          double g = clip(rescale * GRADS[t - 1][i], bound);
          m[i] = b1 * m[i] + (1 - b1) * g;
          v[i] = b2 * v[i] + (1 - b2) * g * g;
          w[i] -= lr * (c * m[i] / (Math.sqrt(v[i]) + eps) + wd * w[i]);
        }
        List<Tensor> state = adamw.state(slot(s));
        assertClose(m, state.get(0).toFloatArray(), "mean after step " + t);
        assertClose(v, state.get(1).toFloatArray(), "var after step " + t);
        assertClose(w, slot(s).weight().toFloatArray(), "w after step " + t);
      }
    }
  }

  @Test
  void adamwWithZeroGradientOnlyDecays() {
    try (ParameterStore s = store(W0);
        AdamW adamw = new AdamW(0.1f, 0.2f)) {
      slot(s).grad().copyFrom(new float[4]);
      adamw.step(s.slots());
      adamw.step(s.slots());
      float[] w = slot(s).weight().toFloatArray();
      for (int i = 0; i < w.length; i++) {
        assertEquals(W0[i] * 0.98 * 0.98, w[i], 1e-6, "w[" + i + "]");
      }
    }
  }

  // --- global-norm clipping ---------------------------------------------------------------

  @Test
  void globalNormClippingScalesAllGradientsTogether() {
    List<ParamSpec> specs =
        List.of(
            new ParamSpec("a_weight", Shape.of(2), "a", ParamSpec.Kind.WEIGHT),
            new ParamSpec("a_bias", Shape.of(1), "a", ParamSpec.Kind.BIAS));
    try (ParameterStore s = new ParameterStore(specs);
        Sgd sgd = Sgd.builder().learningRate(1f).rescaleGrad(2f).clipGlobalNorm(2.5f).build()) {
      ParameterStore.Slot a = s.get("a_weight");
      ParameterStore.Slot b = s.get("a_bias");
      // Rescaled gradients (6, 0) and (8): norm 10, scaled by 0.25 to norm 2.5.
      a.grad().copyFrom(new float[] {3, 0});
      b.grad().copyFrom(new float[] {4});
      sgd.step(s.slots());
      assertClose(new double[] {-1.5, 0}, a.weight().toFloatArray(), "a after clipped step");
      assertClose(new double[] {-2}, b.weight().toFloatArray(), "b after clipped step");
      // Rescaled norm 2 · 1 = 2 < 2.5: left alone.
      a.grad().copyFrom(new float[] {0.6f, 0.8f});
      b.grad().copyFrom(new float[] {0});
      sgd.step(s.slots());
      assertClose(new double[] {-2.7, -1.6}, a.weight().toFloatArray(), "a after free step");
      assertClose(new double[] {-2}, b.weight().toFloatArray(), "b after free step");
    }
  }

  @Test
  void globalNormClippingReachesAdamwThroughItsRescaleArray() {
    List<ParamSpec> specs =
        List.of(
            new ParamSpec("a_weight", Shape.of(2), "a", ParamSpec.Kind.WEIGHT),
            new ParamSpec("a_bias", Shape.of(1), "a", ParamSpec.Kind.BIAS));
    try (ParameterStore s = new ParameterStore(specs);
        AdamW adamw = AdamW.builder().clipGlobalNorm(2.5f).build()) {
      ParameterStore.Slot a = s.get("a_weight");
      ParameterStore.Slot b = s.get("a_bias");
      a.grad().copyFrom(new float[] {3, 0});
      b.grad().copyFrom(new float[] {4});
      adamw.step(s.slots());
      // Norm 5 scaled to 2.5: m = (1 - 0.9) · 0.5 · g.
      assertClose(new double[] {0.15, 0}, adamw.state(a).get(0).toFloatArray(), "a mean");
      assertClose(new double[] {0.2}, adamw.state(b).get(0).toFloatArray(), "b mean");
      a.grad().copyFrom(new float[] {1, 0});
      b.grad().copyFrom(new float[] {0});
      adamw.step(s.slots());
      // Norm 1 < 2.5: unscaled, m = 0.9 · m + 0.1 · g.
      assertClose(new double[] {0.235, 0}, adamw.state(a).get(0).toFloatArray(), "a mean");
      assertClose(new double[] {0.18}, adamw.state(b).get(0).toFloatArray(), "b mean");
    }
  }

  @Test
  void nonFiniteGlobalNormStopsTheStep() {
    try (ParameterStore s = store(W0);
        Sgd sgd = Sgd.builder().learningRate(0.1f).clipGlobalNorm(1f).build()) {
      slot(s).grad().copyFrom(new float[] {1, Float.NaN, 0, 0});
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> sgd.step(s.slots()));
      assertEquals(
          "Sgd: the global gradient norm is NaN at step 0; no parameter was updated",
          e.getMessage());
      assertEquals(0, sgd.stepCount());
      assertClose(doubles(W0), slot(s).weight().toFloatArray(), "w untouched");
    }
  }

  // --- schedules ---------------------------------------------------------------------------

  @Test
  void schedulesGiveTheDocumentedRates() {
    LearningRate constant = LearningRate.constant(0.1f);
    assertEquals(0.1f, constant.rate(0));
    assertEquals(0.1f, constant.rate(1_000_000_000L));

    LearningRate step = LearningRate.step(0.1f, 0.5f, 3);
    assertEquals(0.1, step.rate(0), 1e-8);
    assertEquals(0.1, step.rate(2), 1e-8);
    assertEquals(0.05, step.rate(3), 1e-8);
    assertEquals(0.05, step.rate(5), 1e-8);
    assertEquals(0.025, step.rate(6), 1e-8);
    assertEquals(0.1 * Math.pow(0.5, 10), step.rate(30), 1e-10);

    LearningRate cosine = LearningRate.cosine(0.1f, 0.01f, 100);
    assertEquals(0.1, cosine.rate(0), 1e-8);
    assertEquals(0.01 + 0.09 * (1 + Math.cos(Math.PI / 4)) / 2, cosine.rate(25), 1e-8);
    assertEquals(0.055, cosine.rate(50), 1e-8);
    assertEquals(0.01, cosine.rate(100), 1e-8);
    assertEquals(0.01, cosine.rate(5_000), 1e-8);

    LearningRate warm = LearningRate.cosine(0.1f, 0f, 100).withWarmup(4);
    assertEquals(0.025, warm.rate(0), 1e-8);
    assertEquals(0.05, warm.rate(1), 1e-8);
    assertEquals(0.075, warm.rate(2), 1e-8);
    assertEquals(0.1, warm.rate(3), 1e-8);
    assertEquals(0.1, warm.rate(4), 1e-8);
    assertEquals(0.05, warm.rate(54), 1e-8);
    assertEquals(0.0, warm.rate(104), 1e-8);
    assertEquals(0.1f, warm.base());

    LearningRate warmStep = LearningRate.step(0.2f, 0.1f, 3).withWarmup(2);
    assertEquals(0.1, warmStep.rate(0), 1e-8);
    assertEquals(0.2, warmStep.rate(1), 1e-8);
    assertEquals(0.2, warmStep.rate(4), 1e-8);
    assertEquals(0.02, warmStep.rate(5), 1e-8);

    assertSame(step, step.withWarmup(0));
  }

  @Test
  void aStretchedScheduleRunsEachRateForFactorTimesAsManySteps() {
    LearningRate step = LearningRate.step(0.2f, 0.5f, 3).stretched(2);
    assertEquals(0.2, step.rate(5), 1e-8);
    assertEquals(0.1, step.rate(6), 1e-8);
    LearningRate cosine = LearningRate.cosine(0.1f, 0f, 100).stretched(4);
    assertEquals(0.05, cosine.rate(200), 1e-8);
    assertEquals(0.0, cosine.rate(400), 1e-8);
    LearningRate warm = LearningRate.cosine(0.1f, 0f, 100).withWarmup(4).stretched(2);
    assertEquals(0.1 / 8, warm.rate(0), 1e-8);
    assertEquals(0.1, warm.rate(8), 1e-8);
    assertEquals(0.05, warm.rate(108), 1e-8);
    // Built-ins stay built-in (a job sends them to its servers as text); the rest wrap.
    assertEquals("warmup:8:cosine:0.1:0.0:200", scheduleText(warm));
    LearningRate custom = s -> 1f / (1 + s);
    assertEquals(0.5, custom.stretched(3).rate(5), 1e-8);
    LearningRate constant = LearningRate.constant(0.3f);
    assertSame(constant, constant.stretched(5));
    assertSame(custom, custom.stretched(1));
    assertThrows(IllegalArgumentException.class, () -> constant.stretched(0));
  }

  private static String scheduleText(LearningRate schedule) {
    try (Sgd sgd = Sgd.builder().schedule(schedule).build()) {
      String spec = OptimizerSpec.write(sgd);
      return spec.substring(
          spec.indexOf("schedule=") + 9, spec.indexOf(' ', spec.indexOf("schedule=")));
    }
  }

  @Test
  void optimizerFollowsItsSchedule() {
    try (ParameterStore s = store(0f);
        Sgd sgd = Sgd.builder().schedule(LearningRate.step(0.1f, 0.5f, 2).withWarmup(1)).build()) {
      // Rates 0.1 (warm-up), 0.1, 0.1, 0.05; the gradient is always 1.
      float[] expected = {0.1f, 0.1f, 0.1f, 0.05f};
      double w = 0;
      for (int t = 0; t < 4; t++) {
        assertEquals(expected[t], sgd.learningRate(), 1e-7, "rate of step " + t);
        slot(s).grad().copyFrom(new float[] {1});
        sgd.step(s.slots());
        w -= expected[t];
        assertEquals(w, slot(s).weight().toFloatArray()[0], 1e-6, "w after step " + t);
      }
      assertEquals(4, sgd.stepCount());
    }
  }

  @Test
  void learningRateAndScheduleMustAgreeWhenBothGiven() {
    Sgd ok =
        Sgd.builder()
            .learningRate(0.1f)
            .schedule(LearningRate.cosine(0.1f, 0, 10_000).withWarmup(500))
            .momentum(0.9f)
            .nesterov(true)
            .weightDecay(1e-4f)
            .clipGradient(5f)
            .build();
    assertEquals(0.1f / 500, ok.learningRate(), 1e-9);
    ok.close();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Sgd.builder().learningRate(0.5f).schedule(LearningRate.constant(0.1f)).build());
    assertEquals(
        "Sgd: learningRate(0.5) disagrees with the base rate 0.1 of schedule "
            + "constant(0.1); give one or the other",
        e.getMessage());
  }

  @Test
  void negativeScheduledRateIsRejectedAtTheStep() {
    try (ParameterStore s = store(W0);
        Sgd sgd = Sgd.builder().schedule(t -> 0.1f - 0.1f * t).build()) {
      slot(s).grad().copyFrom(GRADS[0]);
      sgd.step(s.slots());
      sgd.step(s.slots());
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> sgd.step(s.slots()));
      assertTrue(e.getMessage().startsWith("Sgd: schedule "), e.getMessage());
      assertTrue(
          e.getMessage()
              .endsWith(
                  " gave learning rate -0.1 at step 2; a learning rate "
                      + "must be >= 0 and finite"),
          e.getMessage());
    }
  }

  // --- state and lifecycle ------------------------------------------------------------------

  @Test
  void stateIsMadeOnceZeroFilledAndKept() {
    try (ParameterStore s = store(W0);
        Adam adam = new Adam(0.01f)) {
      assertEquals(List.of(), adam.state(slot(s)));
      slot(s).grad().copyFrom(new float[4]);
      adam.step(s.slots());
      List<Tensor> first = adam.state(slot(s));
      assertEquals(2, first.size());
      // A zero gradient leaves zero moments: they started at zero.
      assertClose(new double[4], first.get(0).toFloatArray(), "mean");
      assertClose(new double[4], first.get(1).toFloatArray(), "var");
      for (int t = 0; t < 4; t++) {
        slot(s).grad().copyFrom(GRADS[t % 3]);
        adam.step(s.slots());
      }
      List<Tensor> later = adam.state(slot(s));
      assertSame(first.get(0), later.get(0));
      assertSame(first.get(1), later.get(1));
      assertNotEquals(0f, later.get(0).toFloatArray()[0]);
    }
  }

  @Test
  void closeFreesStateAndLaterUseIsIllegal() {
    try (ParameterStore s = store(W0)) {
      Sgd sgd = Sgd.builder().learningRate(0.1f).momentum(0.9f).build();
      slot(s).grad().copyFrom(GRADS[0]);
      sgd.step(s.slots());
      Tensor momentum = sgd.state(slot(s)).get(0);
      momentum.handle();
      sgd.close();
      sgd.close();
      assertThrows(IllegalStateException.class, momentum::handle, "state array was freed");
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> sgd.step(s.slots()));
      assertEquals("Sgd is closed", e.getMessage());

      AdamW adamw = new AdamW();
      adamw.step(s.slots());
      Tensor mean = adamw.state(slot(s)).get(0);
      adamw.close();
      assertThrows(IllegalStateException.class, mean::handle, "state array was freed");
      e = assertThrows(IllegalStateException.class, () -> adamw.step(s.slots()));
      assertEquals("AdamW is closed", e.getMessage());
    }
  }

  // --- reproducibility ---------------------------------------------------------------------

  private static Graph mlp() {
    GraphBuilder b = new GraphBuilder("Mlp");
    Sym x = b.input(new NodeSource("x", "Mlp.x()", "@Input(shape = {BATCH, 6})"), Shape.of(-1, 6));
    Sym h =
        b.node(
            new NodeSource("h", "Mlp.h()", "@Dense(units = 8)"),
            DenseOp.units(8).activation(Act.TANH),
            x);
    Sym y = b.node(new NodeSource("y", "Mlp.y()", "@Dense(units = 2)"), DenseOp.units(2), h);
    return b.build(List.of(y));
  }

  /** Trains a fresh model from {@code seed} for 20 Adam steps on fixed data; its parameters. */
  private static float[][] trainWithAdam(long seed) {
    SplittableRandom data = new SplittableRandom(99);
    float[] x = new float[16 * 6];
    float[] target = new float[16 * 2];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) data.nextDouble(-1, 1);
    }
    for (int i = 0; i < target.length; i++) {
      target[i] = (float) data.nextDouble(-1, 1);
    }
    try (ModelRuntime m = new ModelRuntime("Mlp", mlp(), Init.xavier(), seed);
        Adam adam = Adam.builder().learningRate(0.01f).weightDecay(1e-3f).build();
        NDManager nd = NDManager.newBaseManager()) {
      float[][] initial =
          m.slots().stream().map(p -> p.weight().toFloatArray()).toArray(float[][]::new);
      m.setTraining(true);
      for (int step = 0; step < 20; step++) {
        float[] out =
            m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(16, 2 * 3)))[0].toFloatArray();
        float[] head = new float[out.length];
        for (int i = 0; i < out.length; i++) {
          head[i] = (out[i] - target[i]) / 16; // gradient of the mean squared error / 2
        }
        m.backward(nd.create(head, new ai.djl.ndarray.types.Shape(16, 2)));
        m.update(adam);
      }
      assertEquals(20, adam.stepCount());
      float[][] trained =
          m.slots().stream().map(p -> p.weight().toFloatArray()).toArray(float[][]::new);
      for (int i = 0; i < trained.length; i++) {
        assertFalse(Arrays.equals(initial[i], trained[i]), "parameter " + i + " trained");
      }
      return trained;
    }
  }

  @Test
  void sameSeedSameDataGivesBitIdenticalParametersAfterAdam() {
    float[][] a = trainWithAdam(3);
    float[][] b = trainWithAdam(3);
    for (int i = 0; i < a.length; i++) {
      assertArrayEquals(a[i], b[i], "parameter " + i + " is bit-identical");
    }
    assertFalse(Arrays.equals(a[0], trainWithAdam(4)[0]), "another seed trains elsewhere");
  }

  @Test
  void theFusedStateIsReachablePerRealParameter() {
    try (ModelRuntime m = new ModelRuntime("Mlp", mlp(), Init.xavier(), 3);
        Adam adam = new Adam(0.01f);
        NDManager nd = NDManager.newBaseManager()) {
      ParameterStore.Slot hw = m.slot("h_weight");
      assertEquals(List.of(), adam.state(hw), "no state before the first step");
      m.setTraining(true);
      m.forward(nd.ones(new ai.djl.ndarray.types.Shape(4, 6)));
      m.backward(nd.ones(new ai.djl.ndarray.types.Shape(4, 2)));
      float[] g = m.param("h_weight").grad();
      m.update(adam);
      List<Tensor> state = adam.state(hw);
      assertEquals(2, state.size(), "mean and variance");
      assertEquals(hw.spec().shape(), state.get(0).shape());
      double[] mean = new double[g.length];
      double[] var = new double[g.length];
      for (int i = 0; i < g.length; i++) {
        mean[i] = 0.1 * g[i];
        var[i] = 0.001 * g[i] * g[i];
      }
      assertClose(mean, state.get(0).toFloatArray(), "h_weight mean after one step");
      assertClose(var, state.get(1).toFloatArray(), "h_weight variance after one step");
      float[] fusedMean = adam.state(m.updateSlots().get(0)).get(0).toFloatArray();
      float[] own = state.get(0).toFloatArray();
      assertArrayEquals(
          own,
          Arrays.copyOfRange(fusedMean, (int) hw.offset(), (int) hw.offset() + own.length),
          "a view of the fused state at the parameter's offset");
      assertSame(state, adam.state(hw), "made once");
    }
  }

  @Test
  void stepOnFreedParametersIsIllegalStateNotACrash() {
    ParameterStore s = store(W0);
    try (Adam adam = Adam.builder().clipGlobalNorm(1f).build()) {
      adam.step(s.slots());
      List<ParameterStore.Slot> slots = s.slots();
      s.close();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> adam.step(slots));
      assertEquals(
          "Adam: parameter p_weight has been freed (is its model closed?)", e.getMessage());
    }
  }

  // --- hyper-parameter checks ----------------------------------------------------------------

  private static void assertRejected(String message, Runnable build) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
    assertEquals(message, e.getMessage());
  }

  @Test
  void badHyperParametersAreRejectedWithTheirValue() {
    assertRejected("learning rate must be positive and finite, got -0.1", () -> new Sgd(-0.1f));
    assertRejected("learning rate must be positive and finite, got NaN", () -> new Adam(Float.NaN));
    assertRejected(
        "learning rate must be positive and finite, got 0.0",
        () -> AdamW.builder().learningRate(0f));
    assertRejected(
        "weight decay must be >= 0 and finite, got -1.0E-4", () -> new Sgd(0.1f, -1e-4f));
    assertRejected("momentum must be in [0, 1), got 1.0", () -> Sgd.builder().momentum(1f));
    assertRejected("momentum must be in [0, 1), got -0.5", () -> Sgd.builder().momentum(-0.5f));
    assertRejected("beta1 must be in [0, 1), got 1.0", () -> Adam.builder().beta1(1f));
    assertRejected("beta2 must be in [0, 1), got -0.1", () -> AdamW.builder().beta2(-0.1f));
    assertRejected(
        "epsilon must be positive and finite, got 0.0", () -> Adam.builder().epsilon(0f));
    assertRejected(
        "epsilon must be positive and finite, got -1.0E-8", () -> AdamW.builder().epsilon(-1e-8f));
    assertRejected(
        "gradient clipping bound must be positive and finite, got 0.0",
        () -> Sgd.builder().clipGradient(0f));
    assertRejected(
        "global gradient norm bound must be positive and finite, got -1.0",
        () -> Adam.builder().clipGlobalNorm(-1f));
    assertRejected(
        "gradient rescale factor must be positive and finite, got Infinity",
        () -> Sgd.builder().rescaleGrad(Float.POSITIVE_INFINITY));
    assertRejected(
        "Sgd needs a learning rate: call learningRate(...) or schedule(...) on its " + "builder",
        () -> Sgd.builder().momentum(0.9f).build());
    assertRejected(
        "Nesterov momentum needs a momentum in (0, 1), got 0; call momentum(...) too",
        () -> Sgd.builder().learningRate(0.1f).nesterov(true).build());
    assertRejected(
        "step schedule factor must be in (0, 1], got 1.5", () -> LearningRate.step(0.1f, 1.5f, 10));
    assertRejected(
        "step schedule must decay every >= 1 steps, got 0", () -> LearningRate.step(0.1f, 0.5f, 0));
    assertRejected(
        "cosine schedule floor must be in [0, 0.1] (the starting rate), got 0.2",
        () -> LearningRate.cosine(0.1f, 0.2f, 10));
    assertRejected(
        "cosine schedule must run for >= 1 steps, got 0", () -> LearningRate.cosine(0.1f, 0f, 0));
    assertRejected(
        "warm-up steps must be >= 0, got -3", () -> LearningRate.constant(0.1f).withWarmup(-3));
  }

  @Test
  void defaultsAreMxnets() {
    try (Adam adam = new Adam();
        AdamW adamw = new AdamW()) {
      assertEquals(1e-3f, adam.learningRate());
      assertEquals(0.9f, adam.beta1());
      assertEquals(0.999f, adam.beta2());
      assertEquals(1e-8f, adam.epsilon());
      assertEquals(0f, adam.weightDecay());
      assertEquals(1e-3f, adamw.learningRate());
      assertEquals(0f, adamw.weightDecay());
    }
  }
}
