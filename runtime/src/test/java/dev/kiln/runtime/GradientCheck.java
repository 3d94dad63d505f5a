package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.exec.ParameterStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Checks a model's analytic gradients (MXNet's backward) against central finite differences of the
 * scalar loss {@code L = sum_k <w_k, output_k>} for fixed random weights {@code w_k}; the head
 * gradients of that loss are exactly {@code w_k}. Every parameter element and every input element
 * is perturbed (unless {@link #skipInputGradient}); float32 throughout.
 *
 * <p>By default the finite differences run in inference mode. {@link #trainingModeLoss()} runs them
 * in training mode instead, for layers whose training forward differs but is deterministic (a batch
 * norm normalises with the batch's own statistics there; its moving averages are updated by every
 * such forward, but a training-mode output never reads them).
 */
public final class GradientCheck {
  public static final float EPS = 1e-2f;
  static final double RELATIVE_TOLERANCE = 1e-2;

  /** Below this magnitude both values count as zero (float32 rounding of L dominates there). */
  static final double ABSOLUTE_FLOOR = 2e-3;

  private final ModelRuntime model;
  private final NDManager nd;
  private final float[][] inputs;
  private final long[][] inputShapes;
  private final float[][] heads;
  private final List<String> failures = new ArrayList<>();
  private final java.util.Set<Integer> skippedInputs = new java.util.HashSet<>();
  private boolean trainingLoss;
  private int checked;

  public GradientCheck(ModelRuntime model, NDManager nd, long[][] inputShapes, long seed) {
    this.model = model;
    this.nd = nd;
    this.inputShapes = inputShapes;
    Random rng = new Random(seed);
    this.inputs = new float[inputShapes.length][];
    for (int i = 0; i < inputShapes.length; i++) {
      inputs[i] = random(rng, (int) new ai.djl.ndarray.types.Shape(inputShapes[i]).size());
    }
    model.setTraining(false);
    NDArray[] out = model.forward(arrays());
    heads = new float[out.length][];
    for (int k = 0; k < out.length; k++) {
      heads[k] = random(rng, (int) out[k].size());
    }
  }

  /**
   * Uses {@code values} for input {@code i} instead of random ones, e.g. whole-number indices for
   * an embedding or well-separated values for a max pool (so that no perturbation changes which
   * value is largest).
   */
  public GradientCheck withInput(int i, float[] values) {
    if (values.length != inputs[i].length) {
      throw new IllegalArgumentException(
          "input " + i + " takes " + inputs[i].length + " values, got " + values.length);
    }
    inputs[i] = values.clone();
    return this;
  }

  /** Leaves out input {@code i}'s gradient: its values are not differentiable (indices). */
  public GradientCheck skipInputGradient(int i) {
    skippedInputs.add(i);
    return this;
  }

  /** Computes the finite differences with training-mode forward passes. */
  public GradientCheck trainingModeLoss() {
    trainingLoss = true;
    return this;
  }

  /** Runs the check and returns how many gradient entries were compared. */
  public int run() {
    model.setTraining(true);
    NDArray[] headArrays = new NDArray[heads.length];
    NDArray[] outs = model.forward(arrays());
    for (int k = 0; k < heads.length; k++) {
      headArrays[k] = nd.create(heads[k], outs[k].getShape());
    }
    NDArray[] inputGrads = model.backward(headArrays);
    model.setTraining(trainingLoss);

    for (ParameterStore.Slot slot : model.slots()) {
      Parameter p = model.param(slot.name());
      float[] analytic = p.grad();
      float[] values = p.get();
      for (int j = 0; j < values.length; j++) {
        float saved = values[j];
        values[j] = saved + EPS;
        p.set(values);
        double plus = loss();
        values[j] = saved - EPS;
        p.set(values);
        double minus = loss();
        values[j] = saved;
        p.set(values);
        compare(slot.name() + "[" + j + "]", (plus - minus) / (2 * EPS), analytic[j]);
      }
    }
    for (int i = 0; i < inputs.length; i++) {
      if (skippedInputs.contains(i)) {
        continue;
      }
      float[] analytic = inputGrads[i].toFloatArray();
      for (int j = 0; j < inputs[i].length; j++) {
        float saved = inputs[i][j];
        inputs[i][j] = saved + EPS;
        double plus = loss();
        inputs[i][j] = saved - EPS;
        double minus = loss();
        inputs[i][j] = saved;
        compare("input " + i + "[" + j + "]", (plus - minus) / (2 * EPS), analytic[j]);
      }
    }
    model.setTraining(false);
    assertTrue(
        failures.isEmpty(),
        failures.size()
            + " of "
            + checked
            + " gradients differ from finite differences:\n"
            + String.join("\n", failures));
    return checked;
  }

  private void compare(String what, double numeric, double analytic) {
    checked++;
    double scale = Math.max(Math.abs(numeric), Math.abs(analytic));
    if (scale > ABSOLUTE_FLOOR && Math.abs(numeric - analytic) > RELATIVE_TOLERANCE * scale) {
      failures.add(what + ": numeric " + numeric + ", analytic " + analytic);
    }
  }

  private double loss() {
    NDArray[] out = model.forward(arrays());
    double l = 0;
    for (int k = 0; k < out.length; k++) {
      float[] o = out[k].toFloatArray();
      for (int j = 0; j < o.length; j++) {
        l += (double) heads[k][j] * o[j];
      }
      out[k].close();
    }
    return l;
  }

  private NDArray[] arrays() {
    NDArray[] a = new NDArray[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      a[i] = nd.create(inputs[i], new ai.djl.ndarray.types.Shape(inputShapes[i]));
    }
    return a;
  }

  private static float[] random(Random rng, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return v;
  }
}
