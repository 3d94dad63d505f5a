package dev.kiln.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DeconvOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.Sgd;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The trainable parameters that are arrays of their own rather than views of the fused array (a
 * transposed convolution's weight, whose layout oneDNN relabels in place in every pass): the store
 * lays them out, steps, zeroes, checks and restores them with the fused array.
 */
class OwnArraysTest {
  private static NodeSource src(String node) {
    return new NodeSource(node, "Up." + node + "()", "@Layer");
  }

  /** A convolution, then a transposed convolution with a bias, as an autoencoder's halves. */
  private static Graph upDown(boolean bias) {
    GraphBuilder b = new GraphBuilder("Up");
    Sym x = b.input(src("x"), Shape.of(-1, 2, 6, 6));
    Sym down = b.node(src("down"), ConvOp.filters(3).kernel(2, 2).stride(2, 2), x);
    DeconvOp up = DeconvOp.filters(2).kernel(2, 2).stride(2, 2).activation(Act.TANH);
    return b.build(List.of(b.node(src("up"), bias ? up : up.withoutBias(), down)));
  }

  private static float[] seq(int n, float scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) Math.sin(i * 0.7) * scale;
    }
    return v;
  }

  @Test
  void theGraphNamesTheRelabelledWeightAsItsSymbolDoes() {
    try (Graph g = upDown(true)) {
      assertEquals(Set.of("up_weight"), g.relabelledWeights());
      assertEquals(g.relabelledWeightsInSymbol(), g.relabelledWeights());
      assertTrue(g.reorderedWeights().containsAll(Set.of("down_weight", "up_weight")));
    }
  }

  @Test
  void aRelabelledWeightHasArraysOfItsOwnAndIsSteppedBesideTheFusedArray() {
    try (ModelRuntime m = new ModelRuntime("Up", upDown(true), Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      ParameterStore.Slot own = m.slot("up_weight");
      assertNull(own.fused(), "a view of the fused array");
      assertNotNull(m.slot("up_bias").fused());
      List<ParameterStore.Slot> stepped = m.updateSlots();
      assertEquals(2, stepped.size());
      assertEquals(own, stepped.get(1));
      // 24 + 3 convolution values and 2 bias values in the fused array; 24 of its own.
      assertEquals(29, stepped.get(0).spec().shape().size());
      assertEquals(24, own.spec().shape().size());

      float[] before = m.param("up_weight").get();
      float[] biasBefore = m.param("up_bias").get();
      NDArray x = nd.create(seq(72, 1f), new ai.djl.ndarray.types.Shape(1, 2, 6, 6));
      m.setTraining(true);
      NDArray[] out = m.forward(x);
      m.backward(nd.create(seq(72, 0.5f), out[0].getShape()));
      float[] grad = m.param("up_weight").grad();
      float[] biasGrad = m.param("up_bias").grad();
      assertTrue(Math.abs(grad[0]) > 0, "no gradient reached the weight");
      m.update(new Sgd(0.5f));
      float[] after = m.param("up_weight").get();
      float[] biasAfter = m.param("up_bias").get();
      for (int i = 0; i < after.length; i++) {
        assertEquals(before[i] - 0.5f * grad[i], after[i], 1e-6f, "up_weight[" + i + "]");
      }
      for (int i = 0; i < biasAfter.length; i++) {
        assertEquals(biasBefore[i] - 0.5f * biasGrad[i], biasAfter[i], 1e-6f);
      }
      assertArrayEquals(new float[grad.length], m.param("up_weight").grad(), "not zeroed");
      // An inference pass after the step sees the new weight.
      m.setTraining(false);
      float[] inference = m.forward(x)[0].toFloatArray();
      m.setTraining(true);
      assertArrayEquals(inference, m.forward(x)[0].toFloatArray(), 1e-6f);
    }
  }

  @Test
  void aNonFiniteGradientInAnArrayOfItsOwnIsRefusedAndNothingChanges() {
    // No bias and a convolution without parameters of its own: the fused array holds only the
    // convolution's, and the bad gradient is in the array of its own.
    try (ModelRuntime m = new ModelRuntime("Up", upDown(false), Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      float[] before = m.param("up_weight").get();
      float[] convBefore = m.param("down_weight").get();
      NDArray x = nd.create(seq(72, 1f), new ai.djl.ndarray.types.Shape(1, 2, 6, 6));
      m.setTraining(true);
      m.forward(x);
      m.backward(nd.create(seq(72, 0.5f), new ai.djl.ndarray.types.Shape(1, 2, 6, 6)));
      float[] g = m.param("up_weight").grad();
      g[5] = Float.NaN;
      m.gradArray("up_weight").set(g);
      NonFiniteException e = assertThrows(NonFiniteException.class, () -> m.update(new Sgd(0.1f)));
      assertTrue(
          e.getMessage().contains("the gradient of up_weight[3, 2, 2, 2] element 5 is NaN"),
          e.getMessage());
      assertArrayEquals(before, m.param("up_weight").get());
      assertArrayEquals(convBefore, m.param("down_weight").get());
    }
  }
}
