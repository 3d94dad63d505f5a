package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.BatchNormOp;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.EmbeddingOp;
import dev.kiln.ops.GlobalPoolOp;
import dev.kiln.ops.LayerNormOp;
import dev.kiln.ops.PoolOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.AuxSpec;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** The layer library's graph-builder methods driven by hand, against hand-computed values. */
class LayerRuntimeTest {
  private static NodeSource src(String node, String annotation) {
    return new NodeSource(node, "Hand." + node + "()", annotation);
  }

  private static Graph graph(Shape in, BiFunction<GraphBuilder, Sym, Sym> layer) {
    GraphBuilder b = new GraphBuilder("Hand");
    Sym x = b.input(src("x", "@Input"), in);
    return b.build(List.of(layer.apply(b, x)));
  }

  private static float[] run(ModelRuntime m, NDManager nd, float[] x, long... shape) {
    NDArray out = m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(shape)))[0];
    return out.toFloatArray();
  }

  private static float[] range(int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = i;
    }
    return v;
  }

  @Test
  void convolutionPassesKernelStrideAndBias() {
    Graph g =
        graph(
            Shape.of(-1, 1, 4, 4),
            (b, x) ->
                b.node(src("conv", "@Conv2D"), ConvOp.filters(1).kernel(2, 2).stride(2, 2), x));
    try (ModelRuntime m = new ModelRuntime("HandModel", g, Init.constant(1f), 0);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(1, 1, 2, 2), m.param("conv_weight").shape());
      m.param("conv_bias").set(new float[] {0.5f});
      // sums of the 2x2 blocks of 0..15, plus the bias
      assertArrayEquals(
          new float[] {10.5f, 18.5f, 42.5f, 50.5f}, run(m, nd, range(16), 1, 1, 4, 4), 1e-5f);
    }
  }

  @Test
  void theBuilderRecordsTheWeightsOneDnnReordersAsTheSymbolSays() {
    // A convolution, a dense layer over it, and a dense layer that is built but not an output:
    // its weight is no argument of the symbol, so it needs no inference copy.
    GraphBuilder b = new GraphBuilder("Hand");
    Sym x = b.input(src("x", "@Input"), Shape.of(-1, 1, 4, 4));
    Sym c = b.node(src("conv", "@Conv2D"), ConvOp.filters(2).kernel(2, 2), x);
    b.node(src("unused", "@Dense"), DenseOp.units(3), c);
    Sym y = b.node(src("y", "@Dense"), DenseOp.units(4), c);
    try (Graph g = b.build(List.of(y))) {
      assertEquals(Set.of("conv_weight", "y_weight"), g.reorderedWeights());
      assertEquals(g.reorderedWeightsInSymbol(), g.reorderedWeights());
    }
  }

  @Test
  void poolingMaxAverageWithPaddingAndGlobal() {
    try (NDManager nd = NDManager.newBaseManager()) {
      try (ModelRuntime max =
          new ModelRuntime(
              "Max",
              graph(
                  Shape.of(-1, 1, 4, 4),
                  (b, x) -> b.node(src("p", "@MaxPool"), PoolOp.max(2, 2), x)),
              Init.xavier(),
              0)) {
        assertArrayEquals(new float[] {5, 7, 13, 15}, run(max, nd, range(16), 1, 1, 4, 4), 0f);
      }
      try (ModelRuntime avg =
          new ModelRuntime(
              "Avg",
              graph(
                  Shape.of(-1, 1, 4, 4),
                  (b, x) -> b.node(src("p", "@AvgPool"), PoolOp.avg(3, 3).pad(1, 1), x)),
              Init.xavier(),
              0)) {
        // windows start at -1 and 2; padding counts as zeros: (0+1+4+5)/9, (2+3+6+7)/9, ...
        assertArrayEquals(
            new float[] {10 / 9f, 18 / 9f, 42 / 9f, 50 / 9f},
            run(avg, nd, range(16), 1, 1, 4, 4),
            1e-5f);
      }
      try (ModelRuntime gap =
          new ModelRuntime(
              "Gap",
              graph(
                  Shape.of(-1, 2, 2, 2),
                  (b, x) -> b.node(src("p", "@GlobalAvgPool"), GlobalPoolOp.avg(), x)),
              Init.xavier(),
              0)) {
        assertArrayEquals(new float[] {1.5f, 5.5f}, run(gap, nd, range(8), 1, 2, 2, 2), 1e-5f);
      }
    }
  }

  @Test
  void layerNormNormalisesEachRowAndAppliesGammaAndBeta() {
    Graph g =
        graph(Shape.of(-1, 4), (b, x) -> b.node(src("ln", "@LayerNorm"), LayerNormOp.axis(-1), x));
    try (ModelRuntime m = new ModelRuntime("Ln", g, Init.xavier(), 0);
        NDManager nd = NDManager.newBaseManager()) {
      assertArrayEquals(new float[] {1, 1, 1, 1}, m.param("ln_gamma").get(), 0f);
      m.param("ln_beta").set(new float[] {0, 0, 0, 1});
      float[] out = run(m, nd, new float[] {1, 2, 3, 4}, 1, 4);
      double s = Math.sqrt(1.25 + 1e-5);
      assertArrayEquals(
          new float[] {
            (float) (-1.5 / s), (float) (-0.5 / s), (float) (0.5 / s), (float) (1.5 / s) + 1
          },
          out,
          1e-5f);
    }
  }

  @Test
  void batchNormHasGammaBetaAndTwoAuxiliaryStates() {
    Graph g =
        graph(
            Shape.of(-1, 3, 2, 2),
            (b, x) -> b.node(src("bn", "@BatchNorm"), BatchNormOp.channelAxis(1), x));
    try (ModelRuntime m = new ModelRuntime("Bn", g, Init.xavier(), 0)) {
      assertEquals(
          List.of("bn_moving_mean", "bn_moving_var"),
          g.auxStates().stream().map(AuxSpec::name).toList());
      assertEquals(AuxSpec.Kind.MOVING_VAR, g.auxState("bn_moving_var").kind());
      assertEquals(Shape.of(3), g.auxState("bn_moving_mean").shape());
      assertArrayEquals(new float[] {1, 1, 1}, m.param("bn_gamma").get(), 0f);
      assertArrayEquals(new float[] {0, 0, 0}, m.param("bn_beta").get(), 0f);
      assertArrayEquals(new float[] {0, 0, 0}, m.auxState("bn_moving_mean").get(), 0f);
      assertArrayEquals(new float[] {1, 1, 1}, m.auxState("bn_moving_var").get(), 0f);
      assertTrue(m.symbolJson().contains("\"fix_gamma\": \"False\""), m.symbolJson());
    }
  }

  /**
   * MXNet 1.9.1 does not check that a reshape keeps the number of values; bound anyway, the
   * executor writes past its output. Kiln refuses to bind and names the node.
   */
  @Test
  void reshapeThatChangesTheNumberOfValuesIsRefusedBeforeBinding() {
    Graph g =
        graph(
            Shape.of(-1, 4),
            (b, x) -> b.node(src("r", "@Reshape(shape = {8, -1})"), ReshapeOp.of(8, -1), x));
    try (ModelRuntime m = new ModelRuntime("Reshaper", g, Init.xavier(), 0);
        NDManager nd = NDManager.newBaseManager()) {
      ModelException e = assertThrows(ModelException.class, () -> run(m, nd, range(12), 3, 4));
      assertEquals(
          "Hand.r() @Reshape(shape = {8, -1}): cannot reshape [3, 4] (12 values) to "
              + "[8, 1] (8 values) for input shapes [[3, 4]]; a reshape must keep the number of "
              + "values",
          e.getMessage());
      assertEquals(0, m.executorCount());
      // An even batch size reshapes correctly.
      assertArrayEquals(range(8), run(m, nd, range(8), 2, 4), 0f);
    }
  }

  @Test
  void embeddingLooksUpRowsAndFreezeKeepsTheWeight() {
    GraphBuilder b = new GraphBuilder("Emb");
    Sym x = b.input(src("x", "@Input"), Shape.of(-1, 2));
    NodeSource e = src("e", "@Embedding");
    b.freeze(e);
    Sym out = b.node(e, EmbeddingOp.rows(3).columns(2), x);
    Graph g = b.build(List.of(out));
    assertTrue(g.isFrozen("e_weight"));
    try (ModelRuntime m = new ModelRuntime("Emb", g, Init.xavier(), 0);
        NDManager nd = NDManager.newBaseManager()) {
      m.param("e_weight").set(new float[] {0, 1, 10, 11, 20, 21});
      float[] y = run(m, nd, new float[] {2, 0}, 1, 2);
      assertArrayEquals(new float[] {20, 21, 0, 1}, y, 0f);
      assertEquals(List.of(), m.trainableSlots());
      m.setTraining(true);
      NDArray o = m.forward(nd.create(new float[] {2, 0}, new ai.djl.ndarray.types.Shape(1, 2)))[0];
      m.backward(o.onesLike());
      m.update(1f);
      assertArrayEquals(new float[] {0, 1, 10, 11, 20, 21}, m.param("e_weight").get(), 0f);
    }
  }
}
