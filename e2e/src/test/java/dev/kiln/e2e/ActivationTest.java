package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.EveryActModel;
import dev.kiln.e2e.models.NewerActsModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The activations MXNet's {@code LeakyReLU} makes and the two Kiln composes, against plain-Java
 * formulas, and their gradients against finite differences.
 */
class ActivationTest {
  private static final double SELU_LAMBDA = 1.0507009873554804934193349852946;
  private static final double SELU_ALPHA = 1.6732632423543772848170429916717;

  /** The standard normal CDF, by Numerical Recipes' erfc approximation (error below 1.2e-7). */
  private static double phi(double x) {
    double z = Math.abs(x) / Math.sqrt(2);
    double t = 1 / (1 + 0.5 * z);
    double erfc =
        t
            * Math.exp(
                -z * z
                    - 1.26551223
                    + t
                        * (1.00002368
                            + t
                                * (0.37409196
                                    + t
                                        * (0.09678418
                                            + t
                                                * (-0.18628806
                                                    + t
                                                        * (0.27886807
                                                            + t
                                                                * (-1.13520398
                                                                    + t
                                                                        * (1.48851587
                                                                            + t
                                                                                * (-0.82215223
                                                                                    + t
                                                                                        * 0.17087277)))))))));
    double cdf = 1 - 0.5 * erfc;
    return x >= 0 ? cdf : 1 - cdf;
  }

  private static double sigmoid(double x) {
    return 1 / (1 + Math.exp(-x));
  }

  @Test
  void everyActivationComputesItsFormula() {
    float[] x = new float[12];
    for (int i = 0; i < x.length; i++) {
      x[i] = -3f + i * 0.55f;
    }
    DoubleUnaryOperator[] formulas = {
      v -> v * phi(v),
      v -> v * sigmoid(v),
      v -> v > 0 ? v : 0.01 * v,
      v -> v > 0 ? v : Math.exp(v) - 1,
      v -> v > 0 ? SELU_LAMBDA * v : SELU_LAMBDA * SELU_ALPHA * (Math.exp(v) - 1),
      v -> v * Math.tanh(Math.log1p(Math.exp(v))),
    };
    String[] names = {"gelu", "silu", "leaky", "elu", "selu", "mish"};
    try (EveryActModel m = EveryActModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      NDList out = m.forward(new NDList(nd.create(x, new Shape(1, 12))));
      for (int k = 0; k < formulas.length; k++) {
        float[] got = out.get(k).toFloatArray();
        for (int i = 0; i < x.length; i++) {
          assertEquals(
              formulas[k].applyAsDouble(x[i]),
              got[i],
              1e-5 + 1e-5 * Math.abs(got[i]),
              names[k] + "(" + x[i] + ")");
        }
      }
    }
  }

  /**
   * Backward through every newer activation, inside a convolution and dense layers and as layers of
   * their own. The kinks of the leaky ReLU, ELU and SELU at 0 are away from every value here (the
   * check perturbs by 0.01 and reports the kinks it crosses as mismatches).
   */
  @Test
  void theirGradientsAreTheFiniteDifferences() {
    try (NewerActsModel m = NewerActsModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 1, 5, 5}}, 21).run();
      assertEquals((2 * 9 + 2) + (5 * 18 + 5) + (4 * 5 + 4) + (3 * 4 + 3) + 2 * 25, n);
    }
  }

  @Test
  void eachActivationsInputGradientIsTheFiniteDifference() {
    try (EveryActModel m = EveryActModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{3, 12}}, 22).run();
      assertEquals(36, n);
    }
  }

  @Test
  void anActivationIsOneNodeWhoseLastOperatorTakesItsName() {
    try (EveryActModel m = EveryActModel.create()) {
      String json = m.symbolJson();
      for (String node : new String[] {"gelu", "silu", "leaky", "elu", "selu", "mish"}) {
        assertEquals(true, json.contains("\"name\": \"" + node + "\""), node + " in " + json);
      }
      assertEquals(true, json.contains("\"name\": \"mish_tanh\""), json);
      assertEquals(true, json.contains("\"act_type\": \"gelu\""), json);
    }
  }
}
