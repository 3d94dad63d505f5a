package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.RecurrentsModel;
import dev.kiln.e2e.models.SineRnnModel;
import dev.kiln.ops.RnnLayout;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.sample.models.FashionLstmModel;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recurrent layers through the generated models: compile-time shapes and parameter counts, the
 * stateful API, gradients, checkpoints, and a stateful GRU that learns a sine wave.
 */
class RecurrentModelTest {
  @TempDir Path dir;

  @Test
  void theSummaryCountsTheFusedVectorAsMxnetSizesIt() {
    // (28 + 128 + 2) · 4 · 128 = 80896 for the LSTM, 1290 for the dense layer.
    assertTrue(FashionLstmModel.SUMMARY.contains("80896"), FashionLstmModel.SUMMARY);
    assertTrue(FashionLstmModel.SUMMARY.contains("82186"), FashionLstmModel.SUMMARY);
    try (FashionLstmModel m = FashionLstmModel.create()) {
      assertEquals(80896, m.params().encodedParameters().shape().size());
      RnnLayout layout = m.params().encodedGates().layout();
      assertEquals(80896, layout.size());
    }
  }

  @Test
  void gradientsOfTwoStackedBidirectionalLayersMatchFiniteDifferences() {
    try (RecurrentsModel m = RecurrentsModel.create(Init.normal(0.5f), 3);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 4, 3}}, 5).run();
      // LSTM (3 + 3 + 2)·24 + (6 + 3 + 2)·24 = 456, ReLU RNN (3 + 2 + 2)·2 = 14, input 24.
      assertEquals(456 + 14 + 24, n);
    }
  }

  @Test
  void aStatefulModelCarriesItsStateAndSetStateRestoresIt() {
    try (SineRnnModel m = SineRnnModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      assertNull(m.state(), "nothing carried before the first call");
      float[] x = new float[2 * 10];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) Math.sin(i * 0.3);
      }
      float[] whole = m.forward(nd.create(x, new Shape(2, 10, 1))).toFloatArray();
      SineRnnModel.State end = m.state();
      assertEquals(2, end.batch());
      assertEquals(1 * 2 * 16, end.statesState().length);
      m.resetState();
      float[] first = new float[2 * 5];
      float[] second = new float[2 * 5];
      for (int b = 0; b < 2; b++) {
        System.arraycopy(x, b * 10, first, b * 5, 5);
        System.arraycopy(x, b * 10 + 5, second, b * 5, 5);
      }
      m.forward(nd.create(first, new Shape(2, 5, 1)));
      SineRnnModel.State half = m.state();
      float[] late = m.forward(nd.create(second, new Shape(2, 5, 1))).toFloatArray();
      for (int b = 0; b < 2; b++) {
        assertArrayEquals(
            Arrays.copyOfRange(whole, b * 10 + 5, b * 10 + 10),
            Arrays.copyOfRange(late, b * 5, b * 5 + 5),
            1e-6f,
            "example " + b);
      }
      assertArrayEquals(end.statesState(), m.state().statesState(), 1e-6f);
      m.setState(half);
      assertArrayEquals(
          late,
          m.forward(nd.create(second, new Shape(2, 5, 1))).toFloatArray(),
          0f,
          "restoring the half-way state replays the second half");
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> m.forward(nd.create(new float[3 * 5], new Shape(3, 5, 1))));
      assertTrue(
          e.getMessage().contains("stateful layer 'states' carries the state of a batch " + "of 2"),
          e.getMessage());
    }
  }

  @Test
  void aStatefulGruLearnsASineWaveStepByStep() {
    try (SineRnnModel m = SineRnnModel.create(Init.xavier(), 2);
        Adam adam = new Adam(0.01f);
        NDManager nd = NDManager.newBaseManager()) {
      double first = 0;
      double last = 0;
      for (int epoch = 0; epoch < 60; epoch++) {
        m.resetState();
        double loss = 0;
        for (int chunk = 0; chunk < 4; chunk++) {
          float[] x = new float[8];
          float[] target = new float[8];
          for (int t = 0; t < 8; t++) {
            double at = (chunk * 8 + t) * 0.4;
            x[t] = (float) Math.sin(at);
            target[t] = (float) Math.sin(at + 0.4);
          }
          m.setTraining(true);
          float[] y = m.forward(nd.create(x, new Shape(1, 8, 1))).toFloatArray();
          float[] head = new float[8];
          for (int t = 0; t < 8; t++) {
            head[t] = (y[t] - target[t]) / 8;
            loss += (y[t] - target[t]) * (y[t] - target[t]) / 32;
          }
          m.backward(nd.create(head, new Shape(1, 8, 1)));
          m.update(adam);
        }
        first = epoch == 0 ? loss : first;
        last = loss;
      }
      assertTrue(last < first / 20 && last < 0.01, "mean squared error " + first + " -> " + last);
    }
  }

  @Test
  void aRecurrentCheckpointLoadsBack() {
    try (FashionLstmModel m = FashionLstmModel.create(Init.xavier(), 4);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray x = nd.randomUniform(0, 1, new Shape(3, 28, 28));
      float[] before = m.forward(x).toFloatArray();
      m.save(dir.resolve("lstm"));
      try (FashionLstmModel back = FashionLstmModel.load(dir.resolve("lstm"))) {
        assertArrayEquals(before, back.forward(x).toFloatArray(), 0f);
      }
    }
  }
}
