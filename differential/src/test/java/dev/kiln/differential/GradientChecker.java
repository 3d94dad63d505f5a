package dev.kiln.differential;

import ai.djl.ndarray.NDManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Compares MXNet's {@code backward} with central finite differences (float32, steps {@value #EPS}
 * down to 3e-4, relative tolerance {@value #RTOL}) of the scalar loss {@code L = sum_k <h_k,
 * out_k>} for fixed random head gradients {@code h_k}, on a few sampled elements of every trainable
 * parameter and every real input.
 *
 * <p>Kinks (ReLU at 0, max-pool ties, padding) are found, not guessed: three central differences of
 * an element with consecutive steps must agree before the finest counts, so a perturbation that
 * crosses a kink is skipped (and another element drawn) instead of failing; a wrong gradient on
 * smooth ground still fails, because the differences then agree with each other and not with {@code
 * backward}. When the model's training-mode function differs from its inference one (dropout, batch
 * norm) the differences are taken in training mode with MXNet's generator reseeded before every
 * pass, so dropout masks repeat; otherwise in inference mode, which also exercises the refresh of
 * oneDNN's inference weights after every parameter write. Index inputs of an embedding are not
 * differentiable: their analytic gradient must be exactly 0. Frozen parameters have no gradient and
 * are skipped.
 */
final class GradientChecker {
  static final float EPS = 1e-2f;
  static final double RTOL = 1e-2;

  /** Both values below this count as equal (float32 rounding of {@code L}). */
  static final double ABSOLUTE_FLOOR = 5e-4;

  private static final int SAMPLES = 3;

  /** The steps of the central differences, coarse to fine (see {@link #judge}). */
  static final float[] STEPS = {EPS, 3e-3f, 1e-3f, 3e-4f};

  private static final int ATTEMPTS = 12;

  /** What a run found. */
  record Result(List<String> failures, List<String> notes, int checked, int kinks) {}

  private final DiffModel model;
  private final NDManager nd;
  private final SymbolInfo info;
  private final Feeds.Arrays inputs;
  private final Random rng;
  private final int mxSeed;
  private final boolean trainingLoss;
  private float[][] heads;
  private int[][] headShapes;
  private double noise;
  private double skew = 1;
  private double jitter;

  GradientChecker(
      DiffModel model, NDManager nd, SymbolInfo info, Feeds.Arrays inputs, Random rng, int mxSeed) {
    this.model = model;
    this.nd = nd;
    this.info = info;
    this.inputs = inputs;
    this.rng = rng;
    this.mxSeed = mxSeed;
    this.trainingLoss = info.trainingDiffers();
  }

  /**
   * Multiplies every analytic parameter gradient by {@code factor} before comparing: how the
   * suite's own tests show that the check fails on a wrong gradient.
   */
  GradientChecker skewed(double factor) {
    this.skew = factor;
    return this;
  }

  /**
   * Moves every trainable parameter by Gaussian noise of standard deviation {@code sigma} before
   * the check, so that it runs at a generic point: a fresh model's zero biases and betas can put
   * many units exactly at a kink at once (a layer norm over one value outputs its beta, a ReLU of
   * exactly 0 follows), where the one-sided slopes of the loss can agree by chance while {@code
   * backward} rightly takes one side of each unit.
   */
  GradientChecker jittered(double sigma) {
    this.jitter = sigma;
    return this;
  }

  /**
   * Runs the check; the model is left in inference mode with its parameters as before (after the
   * jitter, if any).
   */
  Result run() {
    List<String> failures = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    int checked = 0;
    int kinks = 0;
    List<String> inputNames = model.inputNames();
    if (jitter > 0) {
      for (String p : model.paramNames()) {
        if (!model.isFrozen(p)) {
          float[] v = model.param(p);
          for (int j = 0; j < v.length; j++) {
            v[j] += (float) (jitter * rng.nextGaussian());
          }
          model.setParam(p, v);
        }
      }
      notes.add("parameters jittered by N(0, " + jitter + ")");
    }

    model.setTraining(true);
    DiffModel.seedMxnet(mxSeed);
    Feeds.Arrays out = Feeds.forward(model, nd, inputs);
    heads = new float[out.count()][];
    headShapes = out.shapes();
    for (int k = 0; k < heads.length; k++) {
      heads[k] = gaussian(out.values()[k].length);
    }
    List<String> params = new ArrayList<>();
    List<float[]> before = new ArrayList<>();
    for (String p : model.paramNames()) {
      if (model.isFrozen(p)) {
        notes.add(p + ": frozen, no gradient");
      } else {
        params.add(p);
        before.add(model.grad(p));
      }
    }
    Feeds.Arrays inputGrads = Feeds.backward(model, nd, new Feeds.Arrays(heads, headShapes));
    List<float[]> analytic = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      float[] g = model.grad(params.get(i));
      float[] b = before.get(i);
      for (int j = 0; j < g.length; j++) {
        g[j] -= b[j];
      }
      if (skew != 1) {
        for (int j = 0; j < g.length; j++) {
          g[j] = (float) (g[j] * skew);
        }
      }
      analytic.add(g);
    }

    double center = loss();
    for (int i = 0; i < params.size(); i++) {
      String p = params.get(i);
      float[] values = model.param(p);
      float[] grad = analytic.get(i);
      int[] counts =
          check(
              values.length,
              j ->
                  delta -> {
                    float saved = values[j];
                    values[j] = saved + (float) delta;
                    model.setParam(p, values);
                    double l = loss();
                    values[j] = saved;
                    model.setParam(p, values);
                    return l;
                  },
              j -> p + "[" + j + "]",
              grad,
              center,
              failures);
      checked += counts[0];
      kinks += counts[1];
      if (counts[0] == 0) {
        notes.add(p + ": every sampled element was at a kink");
      }
    }
    for (int i = 0; i < inputs.count(); i++) {
      String name = inputNames.get(i);
      float[] grad = inputGrads.values()[i];
      if (info.indexInputs().containsKey(name)) {
        String nonZero = zeros(grad);
        if (nonZero != null) {
          failures.add("input " + name + " (embedding indices): gradient must be 0, " + nonZero);
        }
        checked++;
        continue;
      }
      float[] values = inputs.values()[i];
      int[] counts =
          check(
              values.length,
              j ->
                  delta -> {
                    float saved = values[j];
                    values[j] = saved + (float) delta;
                    double l = loss();
                    values[j] = saved;
                    return l;
                  },
              j -> "input " + name + "[" + j + "]",
              grad,
              center,
              failures);
      checked += counts[0];
      kinks += counts[1];
      if (counts[0] == 0) {
        notes.add("input " + name + ": every sampled element was at a kink");
      }
    }
    double after = loss();
    if (after != center) {
      failures.add(
          String.format(
              Locale.ROOT,
              "the loss changed after restoring every "
                  + "perturbed value: %.9g before, %.9g after",
              center,
              after));
    }
    model.setTraining(false);
    notes.add(
        (trainingLoss ? "training-mode" : "inference-mode")
            + " differences, "
            + checked
            + " elements compared, "
            + kinks
            + " skipped at kinks");
    return new Result(failures, notes, checked, kinks);
  }

  /**
   * Checks up to {@value #SAMPLES} sampled elements of one array of {@code n} (at most {@value
   * #ATTEMPTS} tries); {@code loss.apply(j)} gives the loss with element {@code j} moved by a
   * delta. Returns the number compared and the number skipped at kinks.
   */
  private int[] check(
      int n,
      java.util.function.IntFunction<java.util.function.DoubleUnaryOperator> loss,
      java.util.function.IntFunction<String> what,
      float[] analytic,
      double center,
      List<String> failures) {
    int done = 0;
    int skipped = 0;
    int tries = 0;
    for (int j : sample(n)) {
      if (done >= SAMPLES || tries >= ATTEMPTS) {
        break;
      }
      tries++;
      String verdict = judge(what.apply(j), loss.apply(j), analytic[j], center);
      if (verdict == null) {
        done++;
      } else if (verdict.isEmpty()) {
        skipped++;
      } else {
        done++;
        failures.add(verdict);
      }
    }
    return new int[] {done, skipped};
  }

  /**
   * Null when the finite difference matches {@code analytic}; an empty string when the loss is not
   * smooth enough at these scales to tell (a kink, or many small ones: ReLUs or max-pool windows
   * that a perturbation of a whole channel pushes across, or curvature too strong for the step, as
   * a layer norm over a few values has); otherwise the failure.
   *
   * <p>Central differences are taken with the steps {@link #STEPS}, coarse to fine; the first three
   * consecutive ones that agree with each other within half the tolerance (and a quarter of the
   * rounding floor) decide, and the finest of them is compared with {@code backward}, unless its
   * two one-sided differences disagree: a kink at the point itself (a ReLU whose input is exactly
   * 0), which every central difference averages alike. On smooth ground all of them agree and the
   * first three decide, whatever {@code backward} says, so a wrong gradient still fails.
   *
   * @param center the loss at the unperturbed point
   */
  private String judge(
      String what, java.util.function.DoubleUnaryOperator loss, double analytic, double center) {
    double[] plus = new double[STEPS.length];
    double[] minus = new double[STEPS.length];
    double[] c = new double[STEPS.length];
    for (int q = 0; q < STEPS.length; q++) {
      plus[q] = loss.applyAsDouble(STEPS[q]);
      minus[q] = loss.applyAsDouble(-STEPS[q]);
      c[q] = (plus[q] - minus[q]) / (2 * STEPS[q]);
      if (q < 2) {
        continue;
      }
      double floor = ABSOLUTE_FLOOR + noise / STEPS[q];
      double scale = Math.max(Math.max(Math.abs(c[q - 2]), Math.abs(c[q])), Math.abs(analytic));
      // Stricter than the comparison: a disagreement only skips the element, never fails it.
      double agree = 0.5 * RTOL * scale + floor / 4;
      if (Math.abs(c[q - 2] - c[q - 1]) > agree || Math.abs(c[q - 1] - c[q]) > agree) {
        continue;
      }
      // A kink at the point itself: every central difference averages its two slopes alike.
      double right = (plus[q] - center) / STEPS[q];
      double left = (center - minus[q]) / STEPS[q];
      if (Math.abs(right - left) > RTOL * scale + floor) {
        return "";
      }
      if (Math.abs(c[q] - analytic)
          <= RTOL * Math.max(Math.abs(c[q]), Math.abs(analytic)) + floor) {
        return null;
      }
      return String.format(
          Locale.ROOT,
          "%s: numeric %.6g (steps %s: %s; one-sided %.6g, "
              + "%.6g; absolute floor %.2g), backward %.6g",
          what,
          c[q],
          java.util.Arrays.toString(java.util.Arrays.copyOf(STEPS, q + 1)),
          java.util.Arrays.toString(java.util.Arrays.copyOf(c, q + 1)),
          right,
          left,
          floor,
          analytic);
    }
    return "";
  }

  /**
   * {@code L} for the current parameters and inputs; {@link #noise} keeps the largest estimate of
   * its float32 rounding error seen.
   */
  private double loss() {
    model.setTraining(trainingLoss);
    if (trainingLoss) {
      DiffModel.seedMxnet(mxSeed);
    }
    Feeds.Arrays out = Feeds.forward(model, nd, inputs);
    double l = 0;
    double squares = 0;
    for (int k = 0; k < heads.length; k++) {
      float[] o = out.values()[k];
      for (int j = 0; j < o.length; j++) {
        double term = (double) heads[k][j] * o[j];
        l += term;
        squares += term * term;
      }
    }
    // Float32 rounding of each output (a few ulps after deep sums), adding up like a random walk.
    noise = Math.max(noise, Math.sqrt(squares) * 1e-6);
    return l;
  }

  private List<Integer> sample(int n) {
    List<Integer> all = new ArrayList<>();
    if (n <= ATTEMPTS) {
      for (int i = 0; i < n; i++) {
        all.add(i);
      }
      java.util.Collections.shuffle(all, rng);
      return all;
    }
    java.util.Set<Integer> seen = new java.util.LinkedHashSet<>();
    while (seen.size() < ATTEMPTS) {
      seen.add(rng.nextInt(n));
    }
    return new ArrayList<>(seen);
  }

  private float[] gaussian(int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return v;
  }

  private static String zeros(float[] v) {
    for (int i = 0; i < v.length; i++) {
      if (v[i] != 0f) {
        return "[" + i + "] is " + v[i];
      }
    }
    return null;
  }
}
