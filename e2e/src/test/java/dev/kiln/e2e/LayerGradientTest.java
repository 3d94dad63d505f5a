package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.ConvFlattenModel;
import dev.kiln.e2e.models.ConvolutionsModel;
import dev.kiln.e2e.models.DropoutsModel;
import dev.kiln.e2e.models.EmbedModel;
import dev.kiln.e2e.models.NormsModel;
import dev.kiln.e2e.models.PoolsModel;
import dev.kiln.e2e.models.SignalPoolsModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The layer library's gradients: MXNet's backward against central finite differences, through the
 * generated models.
 */
class LayerGradientTest {
  @Test
  void conv2dWithStridePadDilationAndActivationThenFlatten() {
    try (ConvFlattenModel m = ConvFlattenModel.create(Init.xavier(), 4);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 2, 7, 6}}, 14).run();
      assertEquals((3 * 2 * 3 * 2 + 3) + (2 * 36 + 2) + 2 * 2 * 7 * 6, n);
    }
  }

  @Test
  void conv1dDepthwiseAndTransposedConvolutions() {
    try (ConvolutionsModel m = ConvolutionsModel.create(Init.xavier(), 6);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(List.of(2, 2, 4, 6), shape(m, nd));
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 2, 12}}, 17).run();
      assertEquals((4 * 2 * 3 + 4) + 4 * 2 * 2 + (4 * 2 * 3 * 3 + 2) + 2 * 2 * 12, n);
    }
  }

  private static List<Integer> shape(ConvolutionsModel m, NDManager nd) {
    NDArray out = m.forward(nd.zeros(new Shape(2, 2, 12)));
    return Arrays.stream(out.getShape().getShape()).mapToObj(v -> (int) v).toList();
  }

  /**
   * Max pooling's gradient is a step function of its input: the input values are a shuffled ladder
   * 0.1 apart, so that no perturbation of 0.01 changes which value of a window is largest.
   */
  @Test
  void poolsAndReshapes() {
    try (PoolsModel m = PoolsModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      int size = 2 * 2 * 5 * 5;
      List<Float> ladder = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        ladder.add((i - size / 2) * 0.1f);
      }
      Collections.shuffle(ladder, new Random(15));
      float[] x = new float[size];
      for (int i = 0; i < size; i++) {
        x[i] = ladder.get(i);
      }
      int n =
          new GradientCheck(m.runtime(), nd, new long[][] {{2, 2, 5, 5}}, 15).withInput(0, x).run();
      assertEquals(size, n);
    }
  }

  /**
   * A parametric ReLU, 1-D pools (one under the full convention, run in float64), local response
   * normalisation and a global max pool: the input is a shuffled ladder 0.1 apart that never comes
   * within 0.05 of zero, so no perturbation crosses the ReLU's kink or changes a window's maximum.
   */
  @Test
  void preluPoolsLrnAndGlobalMax() {
    try (SignalPoolsModel m = SignalPoolsModel.create(Init.xavier(), 8);
        NDManager nd = NDManager.newBaseManager()) {
      int size = 2 * 4 * 12;
      List<Float> ladder = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        ladder.add((i - size / 2) * 0.1f + 0.05f);
      }
      Collections.shuffle(ladder, new Random(19));
      float[] x = new float[size];
      for (int i = 0; i < size; i++) {
        x[i] = ladder.get(i);
      }
      m.params().actAlpha().set(new float[] {0.25f, 0.5f, -0.5f, 1.5f});
      int n =
          new GradientCheck(m.runtime(), nd, new long[][] {{2, 4, 12}}, 19).withInput(0, x).run();
      assertEquals(4 + size, n);
    }
  }

  /**
   * Batch norm in training mode normalises with the batch's own mean and variance, and its backward
   * differentiates through them; so the finite differences run in training mode too.
   */
  @Test
  void batchNormWithBatchStatisticsAndLayerNorm() {
    try (NormsModel m = NormsModel.create(Init.xavier(), 5);
        NDManager nd = NDManager.newBaseManager()) {
      int n =
          new GradientCheck(m.runtime(), nd, new long[][] {{4, 3, 2, 2}}, 16)
              .trainingModeLoss()
              .run();
      assertEquals((3 + 3) + (4 * 12 + 4) + (4 + 4) + 4 * 12, n);
    }
  }

  /**
   * Indices are not differentiable: only the weights are checked, and the input gradient is 0 (Kiln
   * feeds the indices through MXNet's {@code BlockGrad}). Row 3 is read by no index.
   */
  @Test
  void embeddingWeightsOnly() {
    try (EmbedModel m = EmbedModel.create(Init.xavier(), 6);
        NDManager nd = NDManager.newBaseManager()) {
      float[] tokens = {0, 4, 2, 2, 1, 4};
      int n =
          new GradientCheck(m.runtime(), nd, new long[][] {{2, 3}}, 17)
              .withInput(0, tokens)
              .skipInputGradient(0)
              .run();
      assertEquals(5 * 4 + (2 * 12 + 2), n);
      m.setTraining(true);
      NDArray out = m.forward(nd.create(tokens, new Shape(2, 3)));
      float[] grad = m.backward(out.onesLike()).tokens().toFloatArray();
      assertArrayEquals(new float[6], grad, 0f);
      float[] weightGrad = m.params().vectorsWeight().grad();
      assertArrayEquals(
          new float[4],
          Arrays.copyOfRange(weightGrad, 3 * 4, 4 * 4),
          0f,
          "row 3 is read by no index, so it gets no gradient");
    }
  }

  @Test
  void dropoutAtRateZero() {
    try (DropoutsModel m = DropoutsModel.create(Init.xavier(), 7);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{3, 6}}, 18).run();
      assertEquals((4 * 6 + 4) + (3 * 4 + 3) + 3 * 6, n);
    }
  }
}
