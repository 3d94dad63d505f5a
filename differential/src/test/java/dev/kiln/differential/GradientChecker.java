package dev.kiln.differential;

import ai.djl.ndarray.NDManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Compares MXNet's {@code backward} with central finite differences (float32, step {@value
 * #EPS}, relative tolerance {@value #RTOL}) of the scalar loss {@code L = sum_k <h_k, out_k>} for
 * fixed random head gradients {@code h_k}, on a few sampled elements of every trainable
 * parameter and every real input.
 *
 * <p>Kinks (ReLU at 0, max-pool ties, padding) are found, not guessed: the two one-sided
 * differences of an element must agree before its central difference counts, so a perturbation
 * that crosses a kink is skipped (and another element drawn) instead of failing; a wrong
 * gradient on smooth ground still fails, because both one-sided differences then agree with each
 * other and not with {@code backward}. When the model's training-mode function differs from its
 * inference one (dropout, batch norm) the differences are taken in training mode with MXNet's
 * generator reseeded before every pass, so dropout masks repeat; otherwise in inference mode,
 * which also exercises the refresh of oneDNN's inference weights after every parameter write.
 * Index inputs of an embedding are not differentiable: their analytic gradient must be exactly
 * 0. Frozen parameters have no gradient and are skipped.
 */
final class GradientChecker {
  static final float EPS = 1e-2f;
  static final double RTOL = 1e-2;
  /** Both values below this count as equal (float32 rounding of {@code L}). */
  static final double ABSOLUTE_FLOOR = 2e-3;
  private static final int SAMPLES = 3;
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

  GradientChecker(DiffModel model, NDManager nd, SymbolInfo info, Feeds.Arrays inputs,
      Random rng, int mxSeed) {
    this.model = model;
    this.nd = nd;
    this.info = info;
    this.inputs = inputs;
    this.rng = rng;
    this.mxSeed = mxSeed;
    this.trainingLoss = info.trainingDiffers();
  }

  /** Runs the check; the model is left in inference mode with its parameters as before. */
  Result run() {
    List<String> failures = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    int checked = 0;
    int kinks = 0;
    List<String> inputNames = model.inputNames();

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
      analytic.add(g);
    }

    double center = loss();
    for (int i = 0; i < params.size(); i++) {
      String p = params.get(i);
      float[] values = model.param(p);
      float[] grad = analytic.get(i);
      int done = 0;
      int tries = 0;
      List<Integer> order = sample(values.length);
      for (int j : order) {
        if (done >= SAMPLES || tries >= ATTEMPTS) {
          break;
        }
        tries++;
        float saved = values[j];
        values[j] = saved + EPS;
        model.setParam(p, values);
        double plus = loss();
        values[j] = saved - EPS;
        model.setParam(p, values);
        double minus = loss();
        values[j] = saved;
        model.setParam(p, values);
        String verdict = judge(p + "[" + j + "]", plus, center, minus, grad[j]);
        if (verdict == null) {
          done++;
        } else if (verdict.isEmpty()) {
          kinks++;
        } else {
          done++;
          failures.add(verdict);
        }
      }
      checked += done;
      if (done == 0) {
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
      int done = 0;
      int tries = 0;
      for (int j : sample(values.length)) {
        if (done >= SAMPLES || tries >= ATTEMPTS) {
          break;
        }
        tries++;
        float saved = values[j];
        values[j] = saved + EPS;
        double plus = loss();
        values[j] = saved - EPS;
        double minus = loss();
        values[j] = saved;
        String verdict = judge("input " + name + "[" + j + "]", plus, center, minus, grad[j]);
        if (verdict == null) {
          done++;
        } else if (verdict.isEmpty()) {
          kinks++;
        } else {
          done++;
          failures.add(verdict);
        }
      }
      checked += done;
      if (done == 0) {
        notes.add("input " + name + ": every sampled element was at a kink");
      }
    }
    double after = loss();
    if (after != center) {
      failures.add(String.format(Locale.ROOT, "the loss changed after restoring every "
          + "perturbed value: %.9g before, %.9g after", center, after));
    }
    model.setTraining(false);
    notes.add((trainingLoss ? "training-mode" : "inference-mode") + " differences, " + checked
        + " elements compared, " + kinks + " skipped at kinks");
    return new Result(failures, notes, checked, kinks);
  }

  /**
   * Null when the central difference matches {@code analytic}; an empty string when the
   * one-sided differences disagree (a kink between them); otherwise the failure.
   */
  private String judge(String what, double plus, double center, double minus, double analytic) {
    double forward = (plus - center) / EPS;
    double backward = (center - minus) / EPS;
    double numeric = (plus - minus) / (2 * EPS);
    double floor = ABSOLUTE_FLOOR + 4 * noise / EPS;
    if (Math.abs(forward - backward) > 0.1 * Math.max(Math.abs(forward), Math.abs(backward))
        + 2 * floor) {
      return "";
    }
    double scale = Math.max(Math.abs(numeric), Math.abs(analytic));
    if (Math.abs(numeric - analytic) <= RTOL * scale + floor) {
      return null;
    }
    return String.format(Locale.ROOT, "%s: numeric %.6g (one-sided %.6g, %.6g), backward %.6g",
        what, numeric, forward, backward, analytic);
  }

  /** {@code L} for the current parameters and inputs, and its rounding noise in {@link #noise}. */
  private double loss() {
    model.setTraining(trainingLoss);
    if (trainingLoss) {
      DiffModel.seedMxnet(mxSeed);
    }
    Feeds.Arrays out = Feeds.forward(model, nd, inputs);
    double l = 0;
    double magnitude = 0;
    for (int k = 0; k < heads.length; k++) {
      float[] o = out.values()[k];
      for (int j = 0; j < o.length; j++) {
        double term = (double) heads[k][j] * o[j];
        l += term;
        magnitude += Math.abs(term);
      }
    }
    noise = Math.max(noise, magnitude * 6e-8 * 4);
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
