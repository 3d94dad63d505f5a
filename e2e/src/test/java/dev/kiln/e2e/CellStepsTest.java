package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.AnyStepsClassifierModel;
import dev.kiln.e2e.models.AnyStepsGruGraph;
import dev.kiln.e2e.models.AnyStepsGruModel;
import dev.kiln.e2e.models.HandGruModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.mxnet.HandleCounter;
import dev.kiln.runtime.optim.Adam;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A custom recurrent cell over {@code Dim.STEPS}: unrolled for the length each executor is bound
 * for, a graph per length, every length over the same parameters, gradients, optimizer state and
 * checkpoints. The reference is the cell in plain Java, computed from the model's own weights.
 */
class CellStepsTest {
  private static final int IN = 3;
  private static final int HIDDEN = 5;

  @TempDir Path dir;

  /** A batch of series: features sin, cos and 0.5 of a phase advancing 0.4 per step. */
  private static float[] series(int batch, int steps, int offset) {
    float[] x = new float[batch * steps * IN];
    for (int b = 0; b < batch; b++) {
      for (int t = 0; t < steps; t++) {
        double at = (b * 3 + t + offset) * 0.4;
        int i = (b * steps + t) * IN;
        x[i] = (float) Math.sin(at);
        x[i + 1] = (float) Math.cos(at);
        x[i + 2] = 0.5f;
      }
    }
    return x;
  }

  /** The next value of the series above: the sine 0.4 later. */
  private static float[] targets(int batch, int steps, int offset) {
    float[] y = new float[batch * steps];
    for (int b = 0; b < batch; b++) {
      for (int t = 0; t < steps; t++) {
        y[b * steps + t] = (float) Math.sin((b * 3 + t + offset) * 0.4 + 0.4);
      }
    }
    return y;
  }

  private static double sigmoid(double a) {
    return 1 / (1 + Math.exp(-a));
  }

  /** {@code (x·W)_j} for {@code W [rows, HIDDEN]} row-major, {@code x} at {@code from}. */
  private static double dot(float[] x, int from, int rows, float[] w, int j) {
    double s = 0;
    for (int i = 0; i < rows; i++) {
      s += x[from + i] * w[i * HIDDEN + j];
    }
    return s;
  }

  /**
   * {@code AnyStepsGru} in plain Java: the GRU cell as {@code GruCell} writes it, from a zero
   * state, then the dense prediction at every step; {@code [batch, steps, 1]} row-major.
   */
  private static float[] reference(AnyStepsGruModel m, float[] x, int batch, int steps) {
    AnyStepsGruModel.Params p = m.params();
    float[] wxr = p.statesWxr().get();
    float[] wxz = p.statesWxz().get();
    float[] wxn = p.statesWxn().get();
    float[] whr = p.statesWhr().get();
    float[] whz = p.statesWhz().get();
    float[] whn = p.statesWhn().get();
    float[] br = p.statesBr().get();
    float[] bz = p.statesBz().get();
    float[] bxn = p.statesBxn().get();
    float[] bhn = p.statesBhn().get();
    float[] dense = p.nextWeight().get();
    float bias = p.nextBias().get()[0];
    float[] out = new float[batch * steps];
    for (int b = 0; b < batch; b++) {
      float[] h = new float[HIDDEN];
      for (int t = 0; t < steps; t++) {
        int at = (b * steps + t) * IN;
        float[] next = new float[HIDDEN];
        for (int j = 0; j < HIDDEN; j++) {
          double r = sigmoid(dot(x, at, IN, wxr, j) + dot(h, 0, HIDDEN, whr, j) + br[j]);
          double z = sigmoid(dot(x, at, IN, wxz, j) + dot(h, 0, HIDDEN, whz, j) + bz[j]);
          double n =
              Math.tanh(dot(x, at, IN, wxn, j) + bxn[j] + r * (dot(h, 0, HIDDEN, whn, j) + bhn[j]));
          next[j] = (float) (n + z * (h[j] - n));
        }
        h = next;
        double y = bias;
        for (int j = 0; j < HIDDEN; j++) {
          y += dense[j] * h[j];
        }
        out[b * steps + t] = (float) y;
      }
    }
    return out;
  }

  /** One Adam step on the mean squared error at {@code steps} steps; returns the loss. */
  private static double trainStep(
      AnyStepsGruModel m, NDManager nd, Adam adam, int batch, int steps, int offset) {
    float[] target = targets(batch, steps, offset);
    m.setTraining(true);
    float[] y =
        m.forward(nd.create(series(batch, steps, offset), new Shape(batch, steps, IN)))
            .toFloatArray();
    float[] head = new float[y.length];
    double loss = 0;
    for (int i = 0; i < y.length; i++) {
      head[i] = 2 * (y[i] - target[i]) / y.length;
      loss += (y[i] - target[i]) * (y[i] - target[i]) / y.length;
    }
    m.backward(nd.create(head, new Shape(batch, steps, 1)));
    m.update(adam);
    m.setTraining(false);
    return loss;
  }

  @Test
  void theCellReadsStepsAndItsParametersDoNot() {
    assertEquals(dev.kiln.runtime.graph.Shape.of(-1, -5, 5), AnyStepsGruGraph.STATES_SHAPE);
    assertEquals(dev.kiln.runtime.graph.Shape.of(3, 5), AnyStepsGruGraph.STATES_WXR_SHAPE);
    assertTrue(AnyStepsGruModel.SUMMARY.contains("[BATCH, STEPS, 5]"), AnyStepsGruModel.SUMMARY);
  }

  @Test
  void trainedOnTenStepsItRunsTwentyFiveWithTheSameWeights() {
    try (AnyStepsGruModel m = AnyStepsGruModel.create(Init.xavier(), 7);
        Adam adam = new Adam(0.02f);
        NDManager nd = NDManager.newBaseManager()) {
      double first = 0;
      double last = 0;
      for (int step = 0; step < 30; step++) {
        last = trainStep(m, nd, adam, 4, 10, step % 5);
        first = step == 0 ? last : first;
      }
      assertTrue(last < first / 3, "mean squared error at 10 steps " + first + " -> " + last);
      float[] x = series(3, 25, 2);
      float[] out = m.forward(nd.create(x, new Shape(3, 25, IN))).toFloatArray();
      assertArrayEquals(reference(m, x, 3, 25), out, 1e-5f, "25 steps with the trained weights");
      // The first ten of those steps are what the ten-step graph computes from the same start.
      float[] prefix = new float[3 * 10 * IN];
      for (int b = 0; b < 3; b++) {
        System.arraycopy(x, b * 25 * IN, prefix, b * 10 * IN, 10 * IN);
      }
      float[] ten = m.forward(nd.create(prefix, new Shape(3, 10, IN))).toFloatArray();
      for (int b = 0; b < 3; b++) {
        for (int t = 0; t < 10; t++) {
          assertEquals(out[b * 25 + t], ten[b * 10 + t], 1e-6f, "example " + b + " step " + t);
        }
      }
      // Graphs for 1 step (the model's own), 10 and 25; executors for [4, 10], [3, 25], [3, 10].
      assertEquals(3, m.runtime().executors().graphCount());
      assertEquals(3, m.runtime().executorCount());
      assertEquals(10, m.runtime().executors().latestGraph().unrolledSteps());
    }
  }

  @Test
  void gradientsThroughEveryStepMatchFiniteDifferencesAtTwoLengths() {
    try (AnyStepsGruModel m = AnyStepsGruModel.create(Init.normal(0.5f), 5);
        NDManager nd = NDManager.newBaseManager()) {
      Random r = new Random(6);
      for (Parameter b :
          new Parameter[] {
            m.params().statesBr(),
            m.params().statesBz(),
            m.params().statesBxn(),
            m.params().statesBhn()
          }) {
        float[] v = new float[HIDDEN];
        for (int i = 0; i < v.length; i++) {
          v[i] = (float) (r.nextGaussian() * 0.3);
        }
        b.set(v); // biases away from zero, so that their gradients mean something
      }
      int params = 140 + HIDDEN + 1;
      for (int steps : new int[] {3, 8}) {
        int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, steps, IN}}, 13 + steps).run();
        assertEquals(params + 2 * steps * IN, n, steps + " steps");
        m.runtime().zeroGradients();
      }
      assertEquals(3, m.runtime().executors().graphCount());
    }
  }

  @Test
  void gradientsOfTwoLengthsAddUpAndOneAdamStateServesBoth() {
    try (AnyStepsGruModel m = AnyStepsGruModel.create(Init.xavier(), 3);
        Adam adam = new Adam(0.01f);
        NDManager nd = NDManager.newBaseManager()) {
      Parameter whn = m.params().statesWhn();
      // The gradient of a ten-step and of a 25-step batch, each alone, then both before one update.
      float[][] alone = new float[2][];
      int[] lengths = {10, 25};
      for (int i = 0; i < 2; i++) {
        backward(m, nd, lengths[i]);
        alone[i] = whn.grad();
        m.runtime().zeroGradients();
      }
      backward(m, nd, 10);
      backward(m, nd, 25);
      float[] both = whn.grad();
      for (int j = 0; j < both.length; j++) {
        assertEquals(alone[0][j] + alone[1][j], both[j], 1e-5f, "states_whn[" + j + "]");
      }
      m.runtime().zeroGradients();

      // Adam's step at 25 steps continues the moments of its step at 10 (step 2, not a first).
      float[] w0 = whn.get();
      backward(m, nd, 10);
      float[] g1 = whn.grad();
      m.update(adam);
      backward(m, nd, 25);
      float[] g2 = whn.grad();
      m.update(adam);
      float[] actual = whn.get();
      double b1 = adam.beta1();
      double b2 = adam.beta2();
      for (int j = 0; j < w0.length; j++) {
        double mom1 = (1 - b1) * g1[j];
        double var1 = (1 - b2) * g1[j] * g1[j];
        double w1 =
            w0[j] - 0.01 * Math.sqrt(1 - b2) / (1 - b1) * mom1 / (Math.sqrt(var1) + adam.epsilon());
        double mom2 = b1 * mom1 + (1 - b1) * g2[j];
        double var2 = b2 * var1 + (1 - b2) * g2[j] * g2[j];
        double w2 =
            w1
                - 0.01
                    * Math.sqrt(1 - b2 * b2)
                    / (1 - b1 * b1)
                    * mom2
                    / (Math.sqrt(var2) + adam.epsilon());
        assertEquals(w2, actual[j], 1e-5, "states_whn[" + j + "] after steps at 10 and 25");
      }
      assertEquals(2, adam.stepCount());
    }
  }

  /** A training-mode forward and backward of a fixed batch of 2 at {@code steps} steps. */
  private static void backward(AnyStepsGruModel m, NDManager nd, int steps) {
    m.setTraining(true);
    m.forward(nd.create(series(2, steps, 1), new Shape(2, steps, IN)));
    float[] head = new float[2 * steps];
    for (int i = 0; i < head.length; i++) {
      head[i] = (float) Math.cos(i * 0.7);
    }
    m.backward(nd.create(head, new Shape(2, steps, 1)));
    m.setTraining(false);
  }

  @Test
  void aCheckpointSavedAfterTrainingAtOneLengthLoadsAndRunsAtAnother() throws IOException {
    try (AnyStepsGruModel m = AnyStepsGruModel.create(Init.xavier(), 4);
        Adam adam = new Adam(0.02f);
        NDManager nd = NDManager.newBaseManager()) {
      for (int step = 0; step < 5; step++) {
        trainStep(m, nd, adam, 4, 10, step);
      }
      Path prefix = dir.resolve("cell");
      m.save(prefix);
      // The symbol is the one the latest forward pass ran: unrolled over 10 steps.
      String stored = Files.readString(Checkpoint.symbolFile(prefix));
      assertEquals(10, m.runtime().graph().stepsIn(stored));
      assertTrue(stored.contains("\"states_t9_"), "step 9's operators are in the symbol");
      NDArray x = nd.create(series(2, 25, 3), new Shape(2, 25, IN));
      float[] expected = m.forward(x).toFloatArray();
      try (AnyStepsGruModel back = AnyStepsGruModel.load(prefix)) {
        assertArrayEquals(m.params().statesWhz().get(), back.params().statesWhz().get(), 0f);
        assertArrayEquals(expected, back.forward(x).toFloatArray(), 0f);
        assertArrayEquals(
            reference(back, series(2, 25, 3), 2, 25), back.forward(x).toFloatArray(), 1e-5f);
        // Loaded into a model that has run at 25 steps: compared with its 10-step graph.
        back.runtime().loadParams(prefix);
        // A model of another architecture (the cell over a constant 6 steps) is still refused.
        UncheckedIOException e =
            assertThrows(UncheckedIOException.class, () -> HandGruModel.load(prefix));
        assertTrue(e.getMessage().contains("not this model's architecture"), e.getMessage());
      }
    }
  }

  @Test
  void closeFreesTheGraphsAndExecutorsOfEveryLength() {
    assertTrue(HandleCounter.enabled(), "tests run with -Dkiln.mx.countHandles=true");
    long before = HandleCounter.live();
    try (NDManager nd = NDManager.newBaseManager();
        Adam adam = new Adam(0.01f)) {
      AnyStepsGruModel m = AnyStepsGruModel.create();
      for (int steps : new int[] {3, 10, 25}) {
        m.forward(nd.create(series(2, steps, 0), new Shape(2, steps, IN)));
      }
      trainStep(m, nd, adam, 4, 10, 0);
      m.exec(dev.kiln.runtime.graph.Shape.of(1, 7, IN)).forward(false);
      m.symbolJson(); // the latest forward's, 10 steps
      assertEquals(5, m.runtime().executors().graphCount(), "1, 3, 10, 25 and 7 steps");
      // The second update also makes the copies of Adam's state that the gradient check keeps.
      trainStep(m, nd, adam, 4, 10, 2);
      // A length seen before reuses its graph and executor: no new handle.
      long created = HandleCounter.created();
      trainStep(m, nd, adam, 4, 10, 1);
      m.forward(nd.create(series(2, 25, 0), new Shape(2, 25, IN))).close();
      assertEquals(created, HandleCounter.created(), "handles made by lengths seen before");
      assertTrue(HandleCounter.live() > before, "the model holds handles while open");
      m.close();
    }
    assertEquals(before, HandleCounter.live(), "live MXNet handles after close");
  }

  @Test
  void theClassifierViewRefusesStepsAndTheModelRunsAnyLength() {
    try (AnyStepsClassifierModel m = AnyStepsClassifierModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      for (int steps : new int[] {4, 9}) {
        float[] p =
            m.forward(nd.create(series(2, steps, 0), new Shape(2, steps, IN))).toFloatArray();
        assertEquals(2 * 3, p.length);
        assertEquals(1f, p[0] + p[1] + p[2], 1e-5f);
      }
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  m.classifier().trainBatch(new float[4 * 3], new int[] {0, 1, 2, 0}, new Adam()));
      assertEquals(
          "AnyStepsClassifierModel: the classifier reads examples of a fixed size, but "
              + "input 'series' has shape [BATCH, STEPS, 3]; declare a constant number of steps, or "
              + "train with forward and backward",
          e.getMessage());
    }
  }
}
