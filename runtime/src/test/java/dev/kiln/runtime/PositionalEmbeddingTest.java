package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.PositionalEmbeddingOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A learned positional embedding ({@link PositionalEmbeddingOp}) on MXNet: row {@code t} of the
 * table added to step {@code t} of every example, the first rows for a shorter sequence, a longer
 * one refused; gradients against finite differences.
 */
class PositionalEmbeddingTest {
  private static ModelRuntime positions(PositionalEmbeddingOp spec, int steps, int width) {
    GraphBuilder b = new GraphBuilder("Pos");
    Sym x = b.input(new NodeSource("x", "Pos.x()", "@Input"), Shape.of(-1, steps, width));
    Sym y = b.node(new NodeSource("pos", "Pos.pos()", "@PositionalEmbedding(steps = 5)"), spec, x);
    return new ModelRuntime("PosModel", b.build(List.of(y)), Init.xavier(), 3);
  }

  private static float[] forward(ModelRuntime m, NDManager nd, float[] x, long... shape) {
    return m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(shape)))[0].toFloatArray();
  }

  @Test
  void eachStepGetsItsRow() {
    Random rng = new Random(1);
    try (ModelRuntime m = positions(PositionalEmbeddingOp.steps(5).width(3), 5, 3);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(5, 3), m.param("pos_weight").shape());
      float[] table = AttentionTest.random(rng, 15);
      m.param("pos_weight").set(table);
      float[] x = AttentionTest.random(rng, 2 * 15);
      float[] expected = new float[x.length];
      for (int i = 0; i < x.length; i++) {
        expected[i] = x[i] + table[i % 15];
      }
      assertArrayEquals(expected, forward(m, nd, x, 2, 5, 3), 1e-6f);
    }
  }

  @Test
  void aShorterSequenceTakesTheFirstRowsAndALongerOneIsRefused() {
    Random rng = new Random(2);
    try (ModelRuntime m = positions(PositionalEmbeddingOp.steps(5).width(3).anyLength(), -5, 3);
        NDManager nd = NDManager.newBaseManager()) {
      float[] table = AttentionTest.random(rng, 15);
      m.param("pos_weight").set(table);
      float[] x = AttentionTest.random(rng, 2 * 9);
      float[] expected = new float[x.length];
      for (int i = 0; i < x.length; i++) {
        expected[i] = x[i] + table[i % 9];
      }
      assertArrayEquals(expected, forward(m, nd, x, 2, 3, 3), 1e-6f);
      RuntimeException e =
          assertThrows(
              RuntimeException.class, () -> forward(m, nd, AttentionTest.random(rng, 18), 1, 6, 3));
      assertTrue(e.getMessage().contains("Pos.pos()"), e.getMessage());
    }
  }

  @Test
  void gradientsAgreeWithFiniteDifferences() {
    try (ModelRuntime m = positions(PositionalEmbeddingOp.steps(4).width(3).anyLength(), 3, 3);
        NDManager nd = NDManager.newBaseManager()) {
      int checked = new GradientCheck(m, nd, new long[][] {{2, 3, 3}}, 5).run();
      assertEquals(12 + 18, checked);
    }
  }
}
