package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.ChannelScaleNetModel;
import dev.kiln.e2e.models.FeatureScaleNetModel;
import dev.kiln.e2e.models.FlatChannelScaleNetModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.graph.ModelException;
import org.junit.jupiter.api.Test;

/**
 * Broadcasting in a custom layer needs equal rank: a parameter that MXNet would line up with
 * another axis of the same size, by coincidence, is refused when the graph is built; the same scale
 * with the rank of the image, or one whose axis is the value's last by name, is computed as meant.
 */
class BroadcastRankTest {
  @Test
  void aParameterThatBroadcastsOnlyByCoincidenceIsRefused() {
    // [channels] against [BATCH, channels, h, w] with channels == w == 4.
    ModelException e = assertThrows(ModelException.class, FlatChannelScaleNetModel::create);
    assertEquals(
        "FlatChannelScaleNet.y() @FlatChannelScale: in layer FlatChannelScale, mul of "
            + "[BATCH, 4, 3, 4] and [4] lines up axis channels of y_scale with axis 3 (w) of x only "
            + "because both are 4: MXNet lines up the last axes of operands of different rank, so "
            + "broadcasting in a custom layer needs equal rank (a leading BATCH aside); declare it "
            + "@Param(shape = {\"channels\", \"1\", \"1\"}) ([4, 1, 1]), which lines channels up "
            + "with axis 1 of x\n"
            + "  shapes through the body of FlatChannelScale, from input x [BATCH, 4, 3, 4] and "
            + "parameter y_scale [4] (its @Param shape):\n"
            + "    mul(x [BATCH, 4, 3, 4], y_scale [4]) lines up channels with w",
        e.getMessage());
    assertEquals("y", e.source().node());
  }

  @Test
  void theScaleWithTheImagesRankScalesEachChannel() {
    try (ChannelScaleNetModel m = ChannelScaleNetModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] scale = {1, -2, 0.5f, 3};
      m.params().yScale().set(scale);
      float[] x = new float[2 * 4 * 3 * 4];
      for (int i = 0; i < x.length; i++) {
        x[i] = (i % 7) - 3 + i * 0.01f;
      }
      float[] expected = new float[x.length];
      for (int i = 0; i < x.length; i++) {
        int channel = (i / 12) % 4;
        expected[i] = x[i] * scale[channel];
      }
      assertArrayEquals(
          expected, m.forward(nd.create(x, new Shape(2, 4, 3, 4))).toFloatArray(), 1e-6f);
    }
  }

  @Test
  void theScaleWithTheImagesRankHasFiniteDifferenceGradients() {
    try (ChannelScaleNetModel m = ChannelScaleNetModel.create(Init.xavier(), 6);
        NDManager nd = NDManager.newBaseManager()) {
      m.params().yScale().set(new float[] {0.5f, -1, 2, 1.5f});
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 4, 3, 4}}, 22).run();
      assertEquals(4 + 2 * 4 * 3 * 4, n);
    }
  }

  @Test
  void aParameterNamedAsTheLastAxisBroadcastsThereWhateverTheOtherSizes() {
    // [features] against [BATCH, steps, features] with steps == features == 3: the names agree.
    try (FeatureScaleNetModel m = FeatureScaleNetModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] scale = {2, 0, -1};
      m.params().yScale().set(scale);
      float[] x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
      float[] expected = new float[9];
      for (int i = 0; i < 9; i++) {
        expected[i] = x[i] * scale[i % 3];
      }
      assertArrayEquals(expected, m.forward(nd.create(x, new Shape(1, 3, 3))).toFloatArray(), 0f);
    }
  }
}
