package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.BrokenCellNetModel;
import dev.kiln.e2e.models.CellSineModel;
import dev.kiln.e2e.models.FusedGruModel;
import dev.kiln.e2e.models.HandGruGraph;
import dev.kiln.e2e.models.HandGruModel;
import dev.kiln.e2e.models.SummingCellNetModel;
import dev.kiln.ops.RnnLayout.Gate;
import dev.kiln.ops.RnnLayout.Part;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.exec.RecurrentParameter;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.mxnet.HandleCounter;
import dev.kiln.runtime.optim.Adam;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Custom recurrent cells ({@code @Layer(state = ...)}), unrolled over the steps: a hand-written GRU
 * cell against MXNet's fused GRU, its gradients, training, checkpoints, and the errors only the
 * graph build can tell.
 */
class CustomCellTest {
  @TempDir Path dir;

  private static float[] random(Random r, int n, double scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextGaussian() * scale);
    }
    return v;
  }

  private static float[] add(float[] a, float[] b) {
    float[] out = a.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += b[i];
    }
    return out;
  }

  @Test
  void theOutputIsEveryStepsStateInferredAtCompileTime() {
    assertEquals(dev.kiln.runtime.graph.Shape.of(-1, 6, 5), HandGruGraph.STATES_SHAPE);
    assertEquals(dev.kiln.runtime.graph.Shape.of(3, 5), HandGruGraph.STATES_WXR_SHAPE);
    assertEquals(dev.kiln.runtime.graph.Shape.of(5, 5), HandGruGraph.STATES_WHN_SHAPE);
    // Three [3, 5] and three [5, 5] matrices and four biases of 5: as many as the fused GRU's.
    assertTrue(HandGruModel.SUMMARY.contains("140"), HandGruModel.SUMMARY);
    assertTrue(
        HandGruModel.SUMMARY.contains("custom cell GruCell, unrolled"), HandGruModel.SUMMARY);
  }

  @Test
  void theHandWrittenGruEqualsTheFusedGruWithTheSameWeights() {
    Random r = new Random(3);
    try (FusedGruModel fused = FusedGruModel.create();
        HandGruModel hand = HandGruModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      Parameter vector = fused.params().statesParameters();
      vector.set(random(r, (int) vector.shape().size(), 0.5));
      RecurrentParameter gates = fused.params().statesGates();
      Gate[] order = {Gate.RESET, Gate.UPDATE, Gate.NEW};
      Parameter[] wx = {
        hand.params().statesWxr(), hand.params().statesWxz(), hand.params().statesWxn()
      };
      Parameter[] wh = {
        hand.params().statesWhr(), hand.params().statesWhz(), hand.params().statesWhn()
      };
      for (int g = 0; g < 3; g++) {
        // MXNet's blocks are [units, in]; the cell's x·W reads [in, units].
        wx[g].transposed().set(gates.get(gates.weight(0, 0, Part.INPUT_TO_HIDDEN, order[g])));
        wh[g].transposed().set(gates.get(gates.weight(0, 0, Part.HIDDEN_TO_HIDDEN, order[g])));
      }
      float[][] bx = new float[3][];
      float[][] bh = new float[3][];
      for (int g = 0; g < 3; g++) {
        bx[g] = gates.get(gates.bias(0, 0, Part.INPUT_TO_HIDDEN, order[g]));
        bh[g] = gates.get(gates.bias(0, 0, Part.HIDDEN_TO_HIDDEN, order[g]));
      }
      hand.params().statesBr().set(add(bx[0], bh[0]));
      hand.params().statesBz().set(add(bx[1], bh[1]));
      hand.params().statesBxn().set(bx[2]);
      hand.params().statesBhn().set(bh[2]);
      for (int batch : new int[] {4, 1}) {
        NDArray x = nd.create(random(r, batch * 6 * 3, 1), new Shape(batch, 6, 3));
        float[] expected = fused.forward(x).toFloatArray();
        float[] actual = hand.forward(x).toFloatArray();
        assertEquals(batch * 6 * 5, actual.length);
        assertArrayEquals(expected, actual, 1e-5f, "batch " + batch);
      }
    }
  }

  @Test
  void gradientsThroughEveryStepMatchFiniteDifferences() {
    try (HandGruModel m = HandGruModel.create(Init.normal(0.5f), 5);
        NDManager nd = NDManager.newBaseManager()) {
      Random r = new Random(6);
      for (Parameter b :
          new Parameter[] {
            m.params().statesBr(),
            m.params().statesBz(),
            m.params().statesBxn(),
            m.params().statesBhn()
          }) {
        b.set(random(r, 5, 0.3)); // biases away from zero, so that their gradients mean something
      }
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 6, 3}}, 13).run();
      assertEquals(140 + 2 * 6 * 3, n);
    }
  }

  @Test
  void trainingTheCellReducesTheLoss() {
    try (CellSineModel m = CellSineModel.create(Init.xavier(), 2);
        Adam adam = new Adam(0.02f);
        NDManager nd = NDManager.newBaseManager()) {
      double first = 0;
      double last = 0;
      for (int step = 0; step < 40; step++) {
        float[] x = new float[4 * 8];
        float[] target = new float[4 * 8];
        for (int b = 0; b < 4; b++) {
          for (int t = 0; t < 8; t++) {
            double at = (b * 8 + t + step % 5) * 0.4;
            x[b * 8 + t] = (float) Math.sin(at);
            target[b * 8 + t] = (float) Math.sin(at + 0.4);
          }
        }
        m.setTraining(true);
        float[] y = m.forward(nd.create(x, new Shape(4, 8, 1))).toFloatArray();
        float[] head = new float[y.length];
        double loss = 0;
        for (int i = 0; i < y.length; i++) {
          head[i] = (y[i] - target[i]) / y.length;
          loss += (y[i] - target[i]) * (y[i] - target[i]) / y.length;
        }
        m.backward(nd.create(head, new Shape(4, 8, 1)));
        m.update(adam);
        first = step == 0 ? loss : first;
        last = loss;
      }
      assertTrue(last < first / 5, "mean squared error " + first + " -> " + last);
    }
  }

  @Test
  void aCellCheckpointLoadsBack() {
    try (CellSineModel m = CellSineModel.create(Init.xavier(), 4);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray x = nd.randomUniform(-1, 1, new Shape(3, 8, 1));
      float[] before = m.forward(x).toFloatArray();
      float[] whr = m.params().statesWhr().get();
      m.save(dir.resolve("cell"));
      try (CellSineModel back = CellSineModel.load(dir.resolve("cell"))) {
        assertArrayEquals(whr, back.params().statesWhr().get(), 0f);
        assertArrayEquals(before, back.forward(x).toFloatArray(), 0f);
      }
    }
  }

  @Test
  void everyStepSharesTheParametersAndStartsFromAZeroState() {
    try (HandGruModel m = HandGruModel.create()) {
      // Ten parameters, not ten per step (in MXNet's argument order, sorted here).
      assertEquals(
          Arrays.asList(
              "states_bhn",
              "states_br",
              "states_bxn",
              "states_bz",
              "states_whn",
              "states_whr",
              "states_whz",
              "states_wxn",
              "states_wxr",
              "states_wxz"),
          m.runtime().graph().params().stream().map(p -> p.name()).sorted().toList());
      String json = m.symbolJson();
      assertEquals(1, json.split("\"name\": ?\"states_wxr\"", -1).length - 1, json);
      assertTrue(json.contains("\"states_t5_"), "step 5's operators are named for it");
      assertTrue(m.runtime().graph().state("states_state") != null, "the zero initial state");
    }
  }

  @Test
  void aCellModelFreesEveryHandleItMadeAndAFailedBuildLeavesNone() {
    assertTrue(HandleCounter.enabled(), "tests run with -Dkiln.mx.countHandles=true");
    long before = HandleCounter.live();
    try (NDManager nd = NDManager.newBaseManager()) {
      CellSineModel m = CellSineModel.create();
      m.setTraining(true);
      m.forward(nd.ones(new Shape(2, 8, 1)));
      m.backward(nd.ones(new Shape(2, 8, 1)));
      m.update(0.1f);
      m.setTraining(false);
      m.forward(nd.ones(new Shape(3, 8, 1)));
      assertTrue(HandleCounter.live() > before, "the model holds handles while open");
      m.close();
    }
    assertThrows(ModelException.class, BrokenCellNetModel::create);
    assertEquals(before, HandleCounter.live(), "live MXNet handles after close");
  }

  @Test
  void aShapeErrorInsideTheStepNamesLayerNodeOperationAndShapes() {
    ModelException e = assertThrows(ModelException.class, BrokenCellNetModel::create);
    assertEquals(
        "BrokenCellNet.states() @BrokenCell(hidden = 2): in layer BrokenCell, dot of "
            + "[BATCH, 2] and [3, 2] does not fit: the last dimension of the left must equal the "
            + "first of the right\n"
            + "  shapes through the body of BrokenCell, from input x step 0 [BATCH, 3] and "
            + "parameter states_w [3, 2] (its @Param shape):\n"
            + "    states_t0_dot0 = dot(x step 0 [BATCH, 3], states_w [3, 2]) -> [BATCH, 2]\n"
            + "    dot(states_state [BATCH, 2], states_w [3, 2]) does not fit",
        e.getMessage());
    assertEquals("states", e.source().node());
  }

  @Test
  void aStepThatReturnsAnotherShapeIsCaughtBeforeBinding() {
    ModelException e = assertThrows(ModelException.class, SummingCellNetModel::create);
    assertEquals(
        "SummingCellNet.states() @SummingCell(hidden = 2): cell SummingCell declares "
            + "state shape [BATCH, 2] but one step of its forward pass returned [BATCH, 3]; a cell's "
            + "forward pass returns the new state\n"
            + "  shapes through the body of SummingCell, from input x step 0 [BATCH, 3] and "
            + "parameter states_w [2, 3] (its @Param shape):\n"
            + "    states_t0_dot0 = dot(states_state [BATCH, 2], states_w [2, 3]) -> [BATCH, 3]\n"
            + "    states_t0_add1 = add(x step 0 [BATCH, 3], states_t0_dot0 [BATCH, 3]) -> [BATCH, 3]",
        e.getMessage());
  }
}
