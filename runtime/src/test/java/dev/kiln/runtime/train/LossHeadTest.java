package dev.kiln.runtime.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.LossOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.ExecutorHandle;
import dev.kiln.runtime.mxnet.HandleArray;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.SymbolHandle;
import dev.kiln.runtime.optim.Sgd;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The loss heads' training graphs against two independent references: the gradient written out by
 * hand from each loss's definition, and MXNet's own regression operators ({@code
 * LinearRegressionOutput}, {@code MAERegressionOutput}, {@code LogisticRegressionOutput}), which
 * back-propagate the same gradient per example but summed over the batch rather than averaged.
 */
class LossHeadTest {
  private static final int IN = 4;
  private static final int OUT = 3;
  private static final int BATCH = 5;

  /** {@code x [BATCH, 4] -> FullyConnected(3, no bias) -> head}. */
  private static Graph graph(LossOp head, boolean training) {
    try (GraphBuilder b = new GraphBuilder("Fit", training)) {
      Sym x = b.input(new NodeSource("x", "Fit.x()", "@Input"), Shape.of(Shape.BATCH, IN));
      Sym y =
          b.node(
              new NodeSource("y", "Fit.y()", "@Dense(units = 3, noBias = true)"),
              DenseOp.units(OUT).withoutBias(),
              x);
      return b.build(List.of(b.node(new NodeSource("fit", "Fit.fit()", "@L2Loss"), head, y)));
    }
  }

  private static float[] random(Random r, int n, boolean probabilities) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = probabilities ? r.nextInt(2) : (float) r.nextGaussian();
    }
    return v;
  }

  /** {@code p = x · wᵀ}, row-major {@code [BATCH, OUT]}. */
  private static double[] predictions(float[] x, float[] w) {
    double[] p = new double[BATCH * OUT];
    for (int n = 0; n < BATCH; n++) {
      for (int o = 0; o < OUT; o++) {
        for (int i = 0; i < IN; i++) {
          p[n * OUT + o] += (double) x[n * IN + i] * w[o * IN + i];
        }
      }
    }
    return p;
  }

  /** The gradient of one loss value with respect to its prediction, from the definition. */
  private static double dLoss(LossOp.Kind kind, double p, double t) {
    return switch (kind) {
      case L2 -> p - t; // d/dp (p - t)² / 2
      case L1 -> Math.signum(p - t); // d/dp |p - t|
      case LOGISTIC -> 1 / (1 + Math.exp(-p)) - t; // d/dz of the cross-entropy of sigmoid(z)
      case LOSS -> throw new AssertionError();
    };
  }

  /** One loss value of a prediction, from the definition. */
  private static double loss(LossOp.Kind kind, double p, double t) {
    return switch (kind) {
      case L2 -> (p - t) * (p - t) / 2;
      case L1 -> Math.abs(p - t);
      case LOGISTIC -> Math.log1p(Math.exp(p)) - p * t;
      case LOSS -> throw new AssertionError();
    };
  }

  private static LossOp spec(LossOp.Kind kind) {
    return new LossOp(kind, OUT);
  }

  @ParameterizedTest
  @EnumSource(
      value = LossOp.Kind.class,
      names = {"L2", "L1", "LOGISTIC"})
  void oneStepOfPlainSgdMovesTheWeightsByTheBatchMeanOfTheLossGradient(LossOp.Kind kind) {
    Random r = new Random(kind.ordinal());
    float[] x = random(r, BATCH * IN, false);
    float[] t = random(r, BATCH * OUT, kind == LossOp.Kind.LOGISTIC);
    try (ModelRuntime m = new ModelRuntime("Fit", graph(spec(kind), false), Init.xavier(), 3);
        Sgd sgd = new Sgd(1f)) {
      Trainer trainer = m.trainer(kind, () -> graph(spec(kind), true));
      float[] w = m.param("y_weight").get();
      double[] p = predictions(x, w);
      Score score = trainer.trainBatch(x, t, BATCH, sgd);

      double expectedLoss = 0;
      double[] grad = new double[OUT * IN];
      for (int n = 0; n < BATCH; n++) {
        double mean = 0;
        for (int o = 0; o < OUT; o++) {
          mean += loss(kind, p[n * OUT + o], t[n * OUT + o]) / OUT;
          double d = dLoss(kind, p[n * OUT + o], t[n * OUT + o]) / OUT / BATCH;
          for (int i = 0; i < IN; i++) {
            grad[o * IN + i] += d * x[n * IN + i];
          }
        }
        expectedLoss += mean;
      }
      assertEquals(expectedLoss, score.lossSum(), 1e-4 * Math.max(1, expectedLoss), "loss sum");
      assertEquals(BATCH, score.count());
      float[] after = m.param("y_weight").get();
      for (int k = 0; k < w.length; k++) {
        assertEquals(w[k] - grad[k], after[k], 1e-5, kind + ": weight " + k + " after one step");
      }
    }
  }

  /**
   * The weight gradient MXNet's own regression operator computes for {@code x -> FullyConnected ->
   * op(label)} with weights {@code w}.
   */
  private static float[] mxnetsGradient(String op, float[] x, float[] w, float[] t) {
    try (SymbolHandle data = SymbolHandle.variable("x");
        SymbolHandle weight = SymbolHandle.variable("w");
        SymbolHandle label = SymbolHandle.variable("label");
        SymbolHandle fc =
            SymbolHandle.operator(
                "FullyConnected",
                new String[] {"num_hidden", "no_bias"},
                new String[] {String.valueOf(OUT), "True"});
        SymbolHandle head = SymbolHandle.operator(op, new String[0], new String[0]);
        NDArrayHandle xs = NDArrayHandle.create(new int[] {BATCH, IN}, 0);
        NDArrayHandle ws = NDArrayHandle.create(new int[] {OUT, IN}, 0);
        NDArrayHandle dw = NDArrayHandle.create(new int[] {OUT, IN}, 0);
        NDArrayHandle ts = NDArrayHandle.create(new int[] {BATCH, OUT}, 0)) {
      fc.compose("fc", new String[] {"data", "weight"}, new SymbolHandle[] {data, weight});
      head.compose("head", new String[] {"data", "label"}, new SymbolHandle[] {fc, label});
      assertEquals(List.of("x", "w", "label"), head.arguments());
      xs.copyFrom(x, x.length);
      ws.copyFrom(w, w.length);
      ts.copyFrom(t, t.length);
      try (ExecutorHandle exec =
          ExecutorHandle.bind(
              head,
              0,
              new NDArrayHandle[] {xs, ws, ts},
              new NDArrayHandle[] {null, dw, null},
              new int[] {0, 1, 0},
              new NDArrayHandle[0])) {
        exec.forward(true);
        exec.backward(HandleArray.EMPTY);
        float[] g = new float[OUT * IN];
        dw.copyTo(g, g.length);
        return g;
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = LossOp.Kind.class,
      names = {"L2", "L1", "LOGISTIC"})
  void theGradientIsMxnetsRegressionOperatorsAveragedOverTheBatch(LossOp.Kind kind) {
    String op =
        switch (kind) {
          case L2 -> "LinearRegressionOutput";
          case L1 -> "MAERegressionOutput";
          default -> "LogisticRegressionOutput";
        };
    Random r = new Random(10 + kind.ordinal());
    float[] x = random(r, BATCH * IN, false);
    float[] t = random(r, BATCH * OUT, kind == LossOp.Kind.LOGISTIC);
    try (ModelRuntime m = new ModelRuntime("Fit", graph(spec(kind), false), Init.xavier(), 4);
        Sgd sgd = new Sgd(1f)) {
      Trainer trainer = m.trainer(kind, () -> graph(spec(kind), true));
      float[] w = m.param("y_weight").get();
      float[] theirs = mxnetsGradient(op, x, w, t);
      trainer.trainBatch(x, t, BATCH, sgd);
      float[] after = m.param("y_weight").get();
      float[] ours = new float[w.length];
      float[] expected = new float[w.length];
      for (int k = 0; k < w.length; k++) {
        ours[k] = w[k] - after[k];
        expected[k] = theirs[k] / BATCH;
      }
      assertArrayEquals(expected, ours, 1e-5f, op + " / batch");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = LossOp.Kind.class,
      names = {"L2", "L1", "LOGISTIC"})
  void inferenceOutputsThePredictionOrTheProbability(LossOp.Kind kind) {
    Random r = new Random(20);
    float[] x = random(r, BATCH * IN, false);
    try (ModelRuntime m = new ModelRuntime("Fit", graph(spec(kind), false), Init.xavier(), 5);
        ai.djl.ndarray.NDManager nd = ai.djl.ndarray.NDManager.newBaseManager()) {
      double[] p = predictions(x, m.param("y_weight").get());
      float[] out =
          m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(BATCH, IN)))[0].toFloatArray();
      for (int k = 0; k < out.length; k++) {
        double expected = kind == LossOp.Kind.LOGISTIC ? 1 / (1 + Math.exp(-p[k])) : p[k];
        assertEquals(expected, out[k], 1e-5, "output " + k);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = LossOp.Kind.class,
      names = {"L2", "LOGISTIC"})
  void badTargetsAreRefusedNamingTheExampleAndNothingIsTrained(LossOp.Kind kind) {
    float[] x = new float[BATCH * IN];
    float[] t = new float[BATCH * OUT];
    t[2 * OUT + 1] = kind == LossOp.Kind.LOGISTIC ? 1.5f : Float.NaN;
    try (ModelRuntime m = new ModelRuntime("Fit", graph(spec(kind), false), Init.xavier(), 6);
        Sgd sgd = new Sgd(1f)) {
      Trainer trainer = m.trainer(kind, () -> graph(spec(kind), true));
      float[] w = m.param("y_weight").get();
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> trainer.trainBatch(x, t, BATCH, sgd));
      assertTrue(e.getMessage().contains("target 1 of example 2"), e.getMessage());
      assertArrayEquals(w, m.param("y_weight").get());
    }
  }
}
