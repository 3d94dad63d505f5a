package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.NodeSource;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Custom recurrent cells unrolled by {@link GraphBuilder#cell}, driven by hand: the outputs of
 * every step against plain Java, for a batch fixed in the declaration and for steps of single
 * values, and the sequences the builder refuses.
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

  @Test
  void aSequenceWithoutConstantStepsIsRefused() {
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
          "Hand.h() @Tanh(hidden = 5): cell Tanh needs a sequence with a constant "
              + "number of steps after the first dimension, got input [BATCH, STEPS, 4] and output "
              + "[BATCH, STEPS, 5]",
          e.getMessage());
    }
  }
}
