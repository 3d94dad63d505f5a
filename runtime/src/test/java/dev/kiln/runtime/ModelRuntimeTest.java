package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.AddOp;
import dev.kiln.ops.ConcatOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runtime driven by hand, without generated code. */
class ModelRuntimeTest {
  private static Graph affine(int in, int out) {
    GraphBuilder b = new GraphBuilder("Affine");
    Sym x =
        b.input(
            new NodeSource("x", "Affine.x()", "@Input(shape = {BATCH, " + in + "})"),
            Shape.of(-1, in));
    Sym y =
        b.node(
            new NodeSource("y", "Affine.y()", "@Dense(units = " + out + ")"),
            DenseOp.units(out),
            x);
    return b.build(List.of(y));
  }

  @Test
  void denseComputesAffineMapWithHandSetWeights() {
    try (ModelRuntime m = new ModelRuntime("AffineModel", affine(2, 1), Init.xavier(), 0);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(Shape.of(1, 2), m.param("y_weight").shape());
      m.param("y_weight").set(new float[] {2f, -1f});
      m.param("y_bias").set(new float[] {0.5f});
      NDArray out =
          m.forward(nd.create(new float[] {1, 2, 3, 4}, new ai.djl.ndarray.types.Shape(2, 2)))[0];
      assertArrayEquals(new float[] {0.5f, 2.5f}, out.toFloatArray(), 1e-6f);
    }
  }

  @Test
  void backwardGivesHandComputedGradients() {
    try (ModelRuntime m = new ModelRuntime("AffineModel", affine(2, 1), Init.xavier(), 0);
        NDManager nd = NDManager.newBaseManager()) {
      m.param("y_weight").set(new float[] {2f, -1f});
      m.setTraining(true);
      m.forward(nd.create(new float[] {1, 2, 3, 4}, new ai.djl.ndarray.types.Shape(2, 2)));
      NDArray dx =
          m.backward(nd.create(new float[] {1, 10}, new ai.djl.ndarray.types.Shape(2, 1)))[0];
      // dL/dx = head * W ; dL/dW = sum_i head_i * x_i ; dL/db = sum head
      assertArrayEquals(new float[] {2, -1, 20, -10}, dx.toFloatArray(), 1e-6f);
      assertArrayEquals(new float[] {31, 42}, m.param("y_weight").grad(), 1e-5f);
      assertArrayEquals(new float[] {11}, m.param("y_bias").grad(), 1e-6f);
      m.update(0.1f);
      assertArrayEquals(new float[] {2 - 3.1f, -1 - 4.2f}, m.param("y_weight").get(), 1e-5f);
      assertArrayEquals(new float[] {0, 0}, m.param("y_weight").grad(), 0f);
    }
  }

  @Test
  void wrongInputShapeNamesInputExpectedAndActual() {
    try (ModelRuntime m = new ModelRuntime("AffineModel", affine(3, 1), Init.xavier(), 0);
        NDManager nd = NDManager.newBaseManager()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.forward(nd.zeros(new ai.djl.ndarray.types.Shape(4, 5))));
      assertEquals(
          "AffineModel input 'x': expected shape [BATCH, 3], got [4, 5] (axis 1 is 5, not 3)",
          e.getMessage());
    }
  }

  @Test
  void useAfterCloseIsIllegalState() {
    ModelRuntime m = new ModelRuntime("AffineModel", affine(3, 1), Init.xavier(), 0);
    m.close();
    m.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.update(0.1f));
    assertEquals("AffineModel is closed", e.getMessage());
  }

  @Test
  void mxnetErrorNamesTheDeclaringNode() {
    GraphBuilder b = new GraphBuilder("Bad");
    Sym x = b.input(new NodeSource("x", "Bad.x()", "@Input(shape = {BATCH, 3})"), Shape.of(-1, 3));
    Sym z = b.input(new NodeSource("z", "Bad.z()", "@Input(shape = {BATCH, 4})"), Shape.of(-1, 4));
    Sym s = b.node(new NodeSource("sum", "Bad.sum()", "@Add"), AddOp.of(), x, z);
    ModelException e = assertThrows(ModelException.class, () -> b.build(List.of(s)));
    assertTrue(
        e.getMessage().startsWith("Bad.sum() @Add: MXNet rejected node 'sum'"), e.getMessage());
  }

  /** Two inputs concatenated, a dense layer and a softmax; with {@code classifier}, its head. */
  private static Graph twoInputSoftmax(boolean classifier) {
    try (GraphBuilder b = new GraphBuilder("TwoIn", classifier)) {
      Sym x =
          b.input(new NodeSource("x", "TwoIn.x()", "@Input(shape = {BATCH, 3})"), Shape.of(-1, 3));
      Sym z =
          b.input(new NodeSource("z", "TwoIn.z()", "@Input(shape = {BATCH, 2})"), Shape.of(-1, 2));
      Sym both = b.node(new NodeSource("both", "TwoIn.both()", "@Concat"), ConcatOp.axis(1), x, z);
      Sym logits =
          b.node(
              new NodeSource("logits", "TwoIn.logits()", "@Dense(units = 4)"),
              DenseOp.units(4),
              both);
      return b.build(
          List.of(
              b.node(
                  new NodeSource("probs", "TwoIn.probs()", "@Softmax"),
                  SoftmaxOp.axis(-1).classifierHead(),
                  logits)));
    }
  }

  @Test
  void aClassifierOfSeveralInputsIsRefusedNamingTheModelAndItsInputs() {
    // Classifier training feeds one batch of features: the other inputs would stay zero.
    try (ModelRuntime m =
        new ModelRuntime("TwoInModel", twoInputSoftmax(false), Init.xavier(), 0)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> m.classifier(() -> twoInputSoftmax(true)));
      assertEquals(
          "TwoInModel is not a classifier: classifier training feeds one input, but "
              + "TwoIn has 2 (x [BATCH, 3], z [BATCH, 2])",
          e.getMessage());
    }
  }
}
