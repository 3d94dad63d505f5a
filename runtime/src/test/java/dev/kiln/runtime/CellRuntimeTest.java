package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Custom recurrent cells unrolled by {@link GraphBuilder#cell}, driven by hand: the outputs of
 * every step against plain Java, for a batch fixed in the declaration, for steps of single values
 * and over {@code STEPS}, a graph per length, and the sequences the builder refuses.
 */
class CellRuntimeTest {
  private static NodeSource src(String node, String annotation) {
    return new NodeSource(node, "Hand." + node + "()", annotation);
  }

  private static float[] random(Random r, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return v;
  }

  /** {@code h' = tanh(x·W + h·U)} over {@code x [2, 3, 4]}, a batch of 2 as declared. */
  @Test
  void aCellOverAConstantBatchBindsItsZeroStateForThatBatch() {
    Graph graph;
    try (GraphBuilder b = new GraphBuilder("Hand")) {
      Shape in = Shape.of(2, 3, 4);
      Sym x = b.input(src("x", "@Input"), in);
      NodeSource cell = src("h", "@Tanh(hidden = 5)");
      Sym w = b.customParam(cell, "w", Shape.of(4, 5), false);
      Sym u = b.customParam(cell, "u", Shape.of(5, 5), false);
      graph =
          b.build(
              List.of(
                  b.cell(
                      cell,
                      "Tanh",
                      in,
                      Shape.of(2, 3, 5),
                      x,
                      List.of(w, u),
                      (step, h, p) ->
                          step.dot(p.get(0)).add(h.dot(p.get(1))).activation(Act.TANH))));
    }
    Random r = new Random(1);
    try (ModelRuntime m = new ModelRuntime("Hand", graph, Init.normal(0.5f), 2);
        NDManager nd = NDManager.newBaseManager()) {
      float[] x = random(r, 2 * 3 * 4);
      float[] w = m.param("h_w").get();
      float[] u = m.param("h_u").get();
      float[] out =
          m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(2, 3, 4)))[0].toFloatArray();
      float[] expected = new float[2 * 3 * 5];
      for (int n = 0; n < 2; n++) {
        double[] h = new double[5];
        for (int t = 0; t < 3; t++) {
          double[] next = new double[5];
          for (int j = 0; j < 5; j++) {
            double a = 0;
            for (int i = 0; i < 4; i++) {
              a += x[(n * 3 + t) * 4 + i] * w[i * 5 + j];
            }
            for (int k = 0; k < 5; k++) {
              a += h[k] * u[k * 5 + j];
            }
            next[j] = Math.tanh(a);
            expected[(n * 3 + t) * 5 + j] = (float) next[j];
          }
          h = next;
        }
      }
      assertArrayEquals(expected, out, 1e-5f);
      assertEquals(Shape.of(2, 5), graph.state("h_state").shape(7), "a constant batch stays");
    }
  }

  /** {@code h' = x + a·h} over a sequence of single values, {@code [BATCH, 4]}: a leaky sum. */
  @Test
  void aCellOverStepsOfSingleValuesUnrollsToo() {
    Graph graph;
    try (GraphBuilder b = new GraphBuilder("Hand")) {
      Shape in = Shape.of(Shape.BATCH, 4);
      Sym x = b.input(src("x", "@Input"), in);
      NodeSource cell = src("sum", "@Leaky");
      Sym a = b.customParam(cell, "a", Shape.of(1), false);
      graph =
          b.build(
              List.of(
                  b.cell(
                      cell,
                      "Leaky",
                      in,
                      Shape.of(Shape.BATCH, 4),
                      x,
                      List.of(a),
                      (step, h, p) -> step.add(h.mul(p.get(0))))));
    }
    try (ModelRuntime m = new ModelRuntime("Hand", graph, Init.normal(0.5f), 2);
        NDManager nd = NDManager.newBaseManager()) {
      m.param("sum_a").set(new float[] {0.5f});
      float[] out =
          m
              .forward(
                  nd.create(
                      new float[] {1, 2, 3, 4, 0, 0, 8, 0}, new ai.djl.ndarray.types.Shape(2, 4)))[
              0]
              .toFloatArray();
      assertArrayEquals(new float[] {1, 2.5f, 4.25f, 6.125f, 0, 0, 8, 4}, out, 1e-6f);
    }
  }

  /** The leaky sum {@code h' = x + a·h} over {@code [BATCH, STEPS]}, unrolled over steps. */
  private static Graph leaky(int steps) {
    try (GraphBuilder b = new GraphBuilder("Hand", false, steps, CellRuntimeTest::leaky)) {
      Shape in = Shape.of(Shape.BATCH, Shape.STEPS);
      Sym x = b.input(src("x", "@Input"), in);
      NodeSource cell = src("sum", "@Leaky");
      Sym a = b.customParam(cell, "a", Shape.of(1), false);
      return b.build(
          List.of(
              b.cell(
                  cell,
                  "Leaky",
                  in,
                  Shape.of(Shape.BATCH, Shape.STEPS),
                  x,
                  List.of(a),
                  (step, h, p) -> step.add(h.mul(p.get(0))))));
    }
  }

  /** The leaky sum in plain Java, one row of {@code x} after another. */
  private static float[] leakySum(float[] x, int steps, float a) {
    float[] out = new float[x.length];
    for (int row = 0; row < x.length / steps; row++) {
      double h = 0;
      for (int t = 0; t < steps; t++) {
        h = x[row * steps + t] + a * h;
        out[row * steps + t] = (float) h;
      }
    }
    return out;
  }

  /**
   * Over {@code STEPS}, each number of steps an executor is bound for unrolls a graph of its own,
   * built once and kept, every one over the one parameter.
   */
  @Test
  void aCellOverStepsUnrollsAGraphPerLengthOverTheSameParameter() {
    Random r = new Random(2);
    try (ModelRuntime m = new ModelRuntime("Hand", leaky(1), Init.normal(0.5f), 2);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(1, m.graph().unrolledSteps());
      assertEquals(List.of("sum"), m.graph().unrolledCells());
      m.param("sum_a").set(new float[] {0.75f});
      for (int steps : new int[] {4, 7, 1, 4}) {
        float[] x = random(r, 3 * steps);
        float[] out =
            m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(3, steps)))[0].toFloatArray();
        assertArrayEquals(leakySum(x, steps, 0.75f), out, 1e-5f, steps + " steps");
        assertEquals(steps, m.executors().latestGraph().unrolledSteps());
      }
      // One graph for each of 1 (the model's own), 4 and 7 steps; one parameter for all.
      assertEquals(3, m.executors().graphCount());
      assertEquals(3, m.executorCount());
      assertEquals(
          List.of("sum_a"), m.executors().graph(7).params().stream().map(p -> p.name()).toList());
      assertEquals(7, m.graph().stepsIn(m.symbolJson(7)));
      assertEquals(-1, m.graph().stepsIn("{}"));
      assertThrows(IllegalArgumentException.class, () -> m.executors().graph(0));
    }
  }

  @Test
  void aCellOverStepsNeedsTheBuilderToKnowTheSteps() {
    try (GraphBuilder b = new GraphBuilder("Hand")) {
      Shape in = Shape.of(Shape.BATCH, Shape.STEPS, 4);
      Sym x = b.input(src("x", "@Input"), in);
      NodeSource cell = src("h", "@Tanh(hidden = 5)");
      ModelException e =
          assertThrows(
              ModelException.class,
              () ->
                  b.cell(
                      cell,
                      "Tanh",
                      in,
                      Shape.of(Shape.BATCH, Shape.STEPS, 5),
                      x,
                      List.of(),
                      (step, h, p) -> h));
      assertEquals(
          "Hand.h() @Tanh(hidden = 5): cell Tanh reads [BATCH, STEPS, 4], whose "
              + "Dim.STEPS steps are unrolled for the number an executor is bound for; build the "
              + "graph for a number of steps with new GraphBuilder(model, training, steps, "
              + "rebuild), as the generated model does",
          e.getMessage());
    }
  }

  @Test
  void aSequenceWhoseStepsAreNeitherConstantNorStepsIsRefused() {
    try (GraphBuilder b = new GraphBuilder("Hand", false, 3, steps -> null)) {
      Shape in = Shape.of(Shape.BATCH, Shape.BATCH, 4);
      Sym x = b.input(src("x", "@Input"), in);
      NodeSource cell = src("h", "@Tanh(hidden = 5)");
      ModelException e =
          assertThrows(
              ModelException.class,
              () ->
                  b.cell(
                      cell,
                      "Tanh",
                      in,
                      Shape.of(Shape.BATCH, Shape.BATCH, 5),
                      x,
                      List.of(),
                      (step, h, p) -> h));
      assertEquals(
          "Hand.h() @Tanh(hidden = 5): cell Tanh needs a sequence with a constant "
              + "number of steps or Dim.STEPS after the first dimension, and STEPS nowhere else, got "
              + "input [BATCH, BATCH, 4] and output [BATCH, BATCH, 5]",
          e.getMessage());
    }
  }
}
