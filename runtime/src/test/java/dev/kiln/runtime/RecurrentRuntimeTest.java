package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.RecurrentOp;
import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.RnnLayout.Gate;
import dev.kiln.ops.RnnLayout.Part;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.exec.RecurrentParameter;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.Mx;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Recurrent layers on MXNet's fused {@code RNN} operator, built straight through the graph builder:
 * outputs and final states against a plain-Java reference of the documented parameter layout,
 * gradients against finite differences, state carried from call to call, sequences of any length on
 * the same weights, dropout between layers, initialisation and the per-gate views.
 */
class RecurrentRuntimeTest {
  @TempDir Path dir;

  private static NodeSource src(String node, String annotation) {
    return new NodeSource(node, "Seq." + node + "()", annotation);
  }

  /** {@code x [BATCH, steps, in]} into one recurrent layer. */
  static Graph graph(RecurrentOp spec, int steps, int in) {
    try (GraphBuilder b = new GraphBuilder("Seq")) {
      Shape shape = Shape.of(Shape.BATCH, steps, in);
      Sym x = b.input(src("x", "@Input(shape = {BATCH, " + steps + ", " + in + "})"), shape);
      Sym y = b.node(src("rnn", "@" + spec.mode()), spec.over(shape.dims()), x);
      return b.build(List.of(y));
    }
  }

  private static float[] random(Random r, int n, double scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextGaussian() * scale);
    }
    return v;
  }

  private static double[][][] cube(float[] flat, int a, int b, int c) {
    double[][][] out = new double[a][b][c];
    for (int i = 0; i < a; i++) {
      for (int j = 0; j < b; j++) {
        for (int k = 0; k < c; k++) {
          out[i][j][k] = flat[(i * b + j) * c + k];
        }
      }
    }
    return out;
  }

  private static void assertClose(double[][][] expected, float[] actual, double tol, String what) {
    int at = 0;
    for (double[][] plane : expected) {
      for (double[] row : plane) {
        for (double e : row) {
          assertEquals(e, actual[at], tol, what + " element " + at);
          at++;
        }
      }
    }
    assertEquals(at, actual.length, what + " size");
  }

  static Stream<Arguments> configurations() {
    return Stream.of(
        Arguments.of(RecurrentOp.lstm(6)),
        Arguments.of(RecurrentOp.gru(6)),
        Arguments.of(RecurrentOp.tanh(6)),
        Arguments.of(RecurrentOp.relu(6)),
        Arguments.of(RecurrentOp.lstm(5).layers(2).inBothDirections()),
        Arguments.of(RecurrentOp.gru(5).layers(2).inBothDirections()),
        Arguments.of(RecurrentOp.tanh(5).layers(2).inBothDirections()));
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void outputsEqualThePlainJavaReferenceOfTheDocumentedLayout(RecurrentOp spec) {
    int n = 3;
    int steps = 5;
    int in = 4;
    Random r = new Random(spec.hashCode());
    try (ModelRuntime m =
            new ModelRuntime("SeqModel", graph(spec, steps, in), Init.normal(0.4f), 7);
        NDManager nd = NDManager.newBaseManager()) {
      RnnLayout layout = m.graph().rnnLayout("rnn_parameters");
      assertEquals(
          layout.size(),
          m.param("rnn_parameters").shape().size(),
          "MXNet's inferred parameter size is the layout's");
      float[] x = random(r, n * steps * in, 1);
      float[] out =
          m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(n, steps, in)))[0].toFloatArray();
      RecurrentReference.Result ref =
          new RecurrentReference(layout, m.param("rnn_parameters").get())
              .run(cube(x, n, steps, in), null, null);
      assertClose(ref.output(), out, 1e-5, spec + " output");
    }
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void theLastStepIsTheFinalStateOfEachDirection(RecurrentOp spec) {
    int n = 2;
    int steps = 6;
    int in = 3;
    Random r = new Random(11);
    try (ModelRuntime m =
            new ModelRuntime("SeqModel", graph(spec.lastStep(), steps, in), Init.normal(0.4f), 8);
        NDManager nd = NDManager.newBaseManager()) {
      RnnLayout layout = m.graph().rnnLayout("rnn_parameters");
      float[] x = random(r, n * steps * in, 1);
      float[] last =
          m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(n, steps, in)))[0].toFloatArray();
      RecurrentReference.Result ref =
          new RecurrentReference(layout, m.param("rnn_parameters").get())
              .run(cube(x, n, steps, in), null, null);
      int dirs = layout.directions();
      int units = layout.units();
      assertEquals(n * dirs * units, last.length);
      for (int b = 0; b < n; b++) {
        for (int d = 0; d < dirs; d++) {
          double[] h = ref.hidden()[(layout.layers() - 1) * dirs + d][b];
          for (int u = 0; u < units; u++) {
            assertEquals(
                h[u], last[(b * dirs + d) * units + u], 1e-5, "example " + b + " direction " + d);
          }
        }
        // The forward direction's final state is its output at the last step; the reverse
        // direction's is its output at the first step.
        for (int u = 0; u < units; u++) {
          assertEquals(ref.output()[b][steps - 1][u], last[b * dirs * units + u], 1e-5);
          if (dirs == 2) {
            assertEquals(ref.output()[b][0][units + u], last[(b * 2 + 1) * units + u], 1e-5);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void gradientsMatchFiniteDifferences(RecurrentOp spec) {
    try (ModelRuntime m = new ModelRuntime("SeqModel", graph(spec, 3, 2), Init.normal(0.5f), 9);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m, nd, new long[][] {{2, 3, 2}}, 10).run();
      assertEquals(m.graph().rnnLayout("rnn_parameters").size() + 2 * 3 * 2, n);
    }
  }

  @Test
  void aStatefulLayerCarriesItsStateSoTwoHalvesEqualTheWholeSequence() {
    RecurrentOp spec = RecurrentOp.lstm(4).layers(2).carryingState();
    Random r = new Random(5);
    float[] x = random(r, 2 * 8 * 3, 1);
    for (boolean training : new boolean[] {false, true}) {
      try (ModelRuntime whole =
              new ModelRuntime("SeqModel", graph(spec, Shape.STEPS, 3), Init.normal(0.4f), 3);
          ModelRuntime halves =
              new ModelRuntime("SeqModel", graph(spec, Shape.STEPS, 3), Init.normal(0.4f), 3);
          NDManager nd = NDManager.newBaseManager()) {
        whole.setTraining(training);
        halves.setTraining(training);
        float[] all =
            whole.forward(nd.create(x, new ai.djl.ndarray.types.Shape(2, 8, 3)))[0].toFloatArray();
        float[] first = new float[2 * 4 * 3];
        float[] second = new float[2 * 4 * 3];
        for (int b = 0; b < 2; b++) {
          System.arraycopy(x, b * 24, first, b * 12, 12);
          System.arraycopy(x, b * 24 + 12, second, b * 12, 12);
        }
        halves.forward(nd.create(first, new ai.djl.ndarray.types.Shape(2, 4, 3)));
        if (training) {
          halves.backward(nd.ones(new ai.djl.ndarray.types.Shape(2, 4, 4)));
          halves.zeroGradients();
        }
        float[] late =
            halves.forward(nd.create(second, new ai.djl.ndarray.types.Shape(2, 4, 3)))[0]
                .toFloatArray();
        for (int b = 0; b < 2; b++) {
          for (int j = 0; j < 16; j++) {
            assertEquals(
                all[b * 32 + 16 + j],
                late[b * 16 + j],
                1e-6,
                "training " + training + " example " + b + " value " + j);
          }
        }
        Map<String, float[]> a = whole.readState();
        Map<String, float[]> h = halves.readState();
        assertEquals(List.of("rnn_state", "rnn_state_cell"), List.copyOf(a.keySet()));
        assertArrayEquals(a.get("rnn_state"), h.get("rnn_state"), 1e-6f);
        assertArrayEquals(a.get("rnn_state_cell"), h.get("rnn_state_cell"), 1e-6f);
        RecurrentReference.Result ref =
            new RecurrentReference(
                    whole.graph().rnnLayout("rnn_parameters"), whole.param("rnn_parameters").get())
                .run(cube(x, 2, 8, 3), null, null);
        assertClose(ref.hidden(), a.get("rnn_state"), 1e-5, "final hidden state");
        assertClose(ref.cell(), a.get("rnn_state_cell"), 1e-5, "final cell state");
      }
    }
  }

  @Test
  void statesCarryThroughLayersSplitForDropoutToo() {
    RecurrentOp spec = RecurrentOp.gru(4).layers(3).dropout(0.3).carryingState();
    Random r = new Random(8);
    float[] x = random(r, 6 * 3, 1);
    try (ModelRuntime whole =
            new ModelRuntime("SeqModel", graph(spec, Shape.STEPS, 3), Init.normal(0.4f), 3);
        ModelRuntime steps =
            new ModelRuntime("SeqModel", graph(spec, Shape.STEPS, 3), Init.normal(0.4f), 3);
        NDManager nd = NDManager.newBaseManager()) {
      float[] all =
          whole.forward(nd.create(x, new ai.djl.ndarray.types.Shape(1, 6, 3)))[0].toFloatArray();
      for (int t = 0; t < 6; t++) {
        float[] one = java.util.Arrays.copyOfRange(x, t * 3, t * 3 + 3);
        float[] out =
            steps.forward(nd.create(one, new ai.djl.ndarray.types.Shape(1, 1, 3)))[0]
                .toFloatArray();
        assertArrayEquals(
            java.util.Arrays.copyOfRange(all, t * 4, t * 4 + 4),
            out,
            1e-6f,
            "step " + t + " run alone");
      }
      assertArrayEquals(
          whole.readState().get("rnn_state"), steps.readState().get("rnn_state"), 1e-6f);
    }
  }

  @Test
  void aStatefulModelKeepsItsBatchSizeUntilReset() {
    try (ModelRuntime m =
            new ModelRuntime(
                "SeqModel",
                graph(RecurrentOp.gru(3).carryingState(), Shape.STEPS, 2),
                Init.xavier(),
                1);
        NDManager nd = NDManager.newBaseManager()) {
      m.forward(nd.ones(new ai.djl.ndarray.types.Shape(4, 5, 2)));
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> m.forward(nd.ones(new ai.djl.ndarray.types.Shape(2, 5, 2))));
      assertEquals(
          "SeqModel: stateful layer 'rnn' carries the state of a batch of 4 from the "
              + "previous call; this call has a batch of 2. Call resetState() first to start new "
              + "sequences, or keep the batch size",
          e.getMessage());
      m.resetState();
      assertEquals(Map.of(), m.readState(), "nothing carried after a reset");
      float[] fresh = m.forward(nd.ones(new ai.djl.ndarray.types.Shape(2, 5, 2)))[0].toFloatArray();
      m.resetState();
      assertArrayEquals(
          fresh,
          m.forward(nd.ones(new ai.djl.ndarray.types.Shape(2, 5, 2)))[0].toFloatArray(),
          0f,
          "a reset starts from zeros again");
      float[] h = m.readState().get("rnn_state");
      m.writeState(2, Map.of("rnn_state", new float[h.length]));
      assertArrayEquals(
          fresh,
          m.forward(nd.ones(new ai.djl.ndarray.types.Shape(2, 5, 2)))[0].toFloatArray(),
          0f,
          "a written zero state equals a reset");
    }
  }

  @Test
  void sequencesOfAnyLengthShareTheWeights() {
    try (ModelRuntime m =
            new ModelRuntime(
                "SeqModel", graph(RecurrentOp.lstm(4), Shape.STEPS, 3), Init.xavier(), 2);
        NDManager nd = NDManager.newBaseManager()) {
      Random r = new Random(6);
      m.setTraining(true);
      for (int i = 0; i < 3; i++) {
        m.forward(nd.create(random(r, 2 * 10 * 3, 1), new ai.djl.ndarray.types.Shape(2, 10, 3)));
        m.backward(nd.create(random(r, 2 * 10 * 4, 1), new ai.djl.ndarray.types.Shape(2, 10, 4)));
        m.update(0.1f);
      }
      m.setTraining(false);
      float[] x = random(r, 25 * 3, 1);
      float[] out =
          m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(1, 25, 3)))[0].toFloatArray();
      assertEquals(2, m.executorCount(), "one executor per (batch, steps)");
      RecurrentReference.Result ref =
          new RecurrentReference(
                  m.graph().rnnLayout("rnn_parameters"), m.param("rnn_parameters").get())
              .run(cube(x, 1, 25, 3), null, null);
      assertClose(ref.output(), out, 1e-5, "25 steps with the weights trained on 10");
    }
  }

  @Test
  void dropoutBetweenLayersActsInTrainingOnly() {
    RecurrentOp spec = RecurrentOp.lstm(8).layers(2).dropout(0.5);
    try (ModelRuntime m = new ModelRuntime("SeqModel", graph(spec, 4, 3), Init.normal(0.5f), 4);
        NDManager nd = NDManager.newBaseManager()) {
      Random r = new Random(7);
      float[] x = random(r, 2 * 4 * 3, 1);
      NDArray batch = nd.create(x, new ai.djl.ndarray.types.Shape(2, 4, 3));
      float[] inference = m.forward(batch)[0].toFloatArray();
      RecurrentReference.Result ref =
          new RecurrentReference(
                  m.graph().rnnLayout("rnn_parameters"), m.param("rnn_parameters").get())
              .run(cube(x, 2, 4, 3), null, null);
      assertClose(ref.output(), inference, 1e-5, "inference: no dropout");
      m.setTraining(true);
      Mx.seed(3);
      float[] a = m.forward(batch)[0].toFloatArray();
      Mx.seed(3);
      float[] b = m.forward(batch)[0].toFloatArray();
      assertArrayEquals(a, b, 0f, "the same seed, the same masks");
      assertFalse(java.util.Arrays.equals(a, inference), "training drops units between layers");
    }
  }

  @Test
  void eachGateStartsFromTheInitialiserWithItsOwnFansAndTheForgetBiasAtOne() {
    try (ModelRuntime m =
        new ModelRuntime("SeqModel", graph(RecurrentOp.lstm(16), 2, 40), Init.xavier(), 5)) {
      RecurrentParameter p = m.recurrent("rnn_parameters");
      for (Gate g : RnnLayout.Mode.LSTM.gates()) {
        for (Part part : Part.values()) {
          RnnLayout.Block block = p.weight(0, 0, part, g);
          int fanIn = block.shape().dim(1);
          double bound = Math.sqrt(3.0 / ((fanIn + 16) / 2.0));
          double max = 0;
          for (float v : p.get(block)) {
            max = Math.max(max, Math.abs(v));
          }
          assertTrue(
              max <= bound && max > 0.8 * bound,
              g + " " + part + ": max " + max + " for bound " + bound);
          float expected = g == Gate.FORGET && part == Part.INPUT_TO_HIDDEN ? 1f : 0f;
          for (float v : p.get(p.bias(0, 0, part, g))) {
            assertEquals(expected, v, 0f, g + " " + part + " bias");
          }
        }
      }
    }
  }

  @Test
  void aGateViewReadsAndWritesItsOwnBlockOnly() {
    try (ModelRuntime m =
        new ModelRuntime(
            "SeqModel",
            graph(RecurrentOp.gru(3).layers(2).inBothDirections(), 2, 2),
            Init.xavier(),
            6)) {
      RecurrentParameter p = m.recurrent("rnn_parameters");
      float[] before = p.vector().get();
      RnnLayout.Block z = p.weight(1, 1, Part.HIDDEN_TO_HIDDEN, Gate.UPDATE);
      assertEquals(Shape.of(3, 3), p.shape(z));
      float[] nine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
      p.set(z, nine);
      assertArrayEquals(nine, p.get(z), 0f);
      float[] after = p.vector().get();
      for (int i = 0; i < after.length; i++) {
        if (i < z.offset() || i >= z.offset() + 9) {
          assertEquals(before[i], after[i], 0f, "element " + i + " outside the block");
        }
      }
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> p.weight(0, 0, Part.INPUT_TO_HIDDEN, Gate.FORGET));
      assertEquals(
          "SeqModel parameter rnn_parameters: a gru layer has gates [RESET, UPDATE, "
              + "NEW], not FORGET",
          e.getMessage());
    }
  }

  @Test
  void djlLoadsARecurrentCheckpointAndComputesTheSameOutputs() throws Exception {
    try (ModelRuntime kiln =
            new ModelRuntime(
                "SeqModel", graph(RecurrentOp.lstm(4).lastStep(), 6, 3), Init.xavier(), 8);
        NDManager nd = NDManager.newBaseManager()) {
      kiln.save(dir.resolve("seq"));
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(2, 6, 3));
      float[] expected = kiln.forward(x)[0].toFloatArray();
      try (Model model = Model.newInstance("seq", "MXNet")) {
        model.load(dir, "seq");
        try (Predictor<NDList, NDList> predictor = model.newPredictor(new NoopTranslator())) {
          NDList out =
              predictor.predict(
                  new NDList(
                      x,
                      nd.zeros(new ai.djl.ndarray.types.Shape(1, 2, 4)),
                      nd.zeros(new ai.djl.ndarray.types.Shape(1, 2, 4))));
          assertArrayEquals(expected, out.head().toFloatArray(), 1e-5f);
        }
      }
      try (ModelRuntime back =
          new ModelRuntime(
              "SeqModel", graph(RecurrentOp.lstm(4).lastStep(), 6, 3), Init.zeros(), 0)) {
        back.loadParams(dir.resolve("seq"));
        assertArrayEquals(expected, back.forward(x)[0].toFloatArray(), 0f, "round trip");
      }
    }
  }
}
