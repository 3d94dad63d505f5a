package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.AttentionOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Attention written by hand in a custom layer's body with {@code Sym.batchDot} and {@code
 * Sym.softmax}: one head of it computes what the built-in {@link AttentionOp} computes with the
 * same weights, its gradients agree with finite differences, and the trace refuses operands that do
 * not fit.
 */
class CustomAttentionTest {
  private static final NodeSource HEAD = new NodeSource("head", "Att.head()", "@Head(size = 3)");

  /** One head over {@code [BATCH, steps, width]}: {@code softmax(q kᵀ / sqrt(d)) v · Wo}. */
  private static ModelRuntime handWritten(int steps, int width, int d) {
    GraphBuilder b = new GraphBuilder("Att");
    Sym x = b.input(new NodeSource("x", "Att.x()", "@Input"), Shape.of(-1, steps, width));
    List<Sym> params =
        List.of(
            b.customParam(
                HEAD, "query", Shape.of(width, d), List.of("width", "size"), ParamInit.MODEL),
            b.customParam(
                HEAD, "key", Shape.of(width, d), List.of("width", "size"), ParamInit.MODEL),
            b.customParam(
                HEAD, "value", Shape.of(width, d), List.of("width", "size"), ParamInit.MODEL),
            b.customParam(
                HEAD, "output", Shape.of(d, width), List.of("size", "width"), ParamInit.MODEL));
    Sym y =
        b.custom(
            HEAD,
            "Head",
            List.of("batch", "steps", "width"),
            Shape.of(-1, steps, width),
            Shape.of(-1, steps, width),
            x,
            params,
            (in, p) -> {
              Sym q = in.dot(p.get(0));
              Sym k = in.dot(p.get(1));
              Sym v = in.dot(p.get(2));
              Sym weights = q.batchDot(k, true).scale((float) (1 / Math.sqrt(d))).softmax(-1);
              return weights.batchDot(v, false).dot(p.get(3));
            });
    return new ModelRuntime("AttModel", b.build(List.of(y)), Init.xavier(), 5);
  }

  private static float[] transpose(float[] m, int rows, int cols) {
    float[] t = new float[m.length];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        t[c * rows + r] = m[r * cols + c];
      }
    }
    return t;
  }

  @Test
  void oneHandWrittenHeadIsTheBuiltInAttentionOfOneHead() {
    Random rng = new Random(1);
    int n = 3, t = 5, w = 4, d = 3;
    try (ModelRuntime hand = handWritten(t, w, d);
        ModelRuntime builtIn =
            AttentionTest.attention(
                AttentionOp.heads(1).width(w).keyDim(d).withoutBias(), new int[] {-1, t, w});
        NDManager nd = NDManager.newBaseManager()) {
      String[] roles = {"query", "key", "value"};
      for (String role : roles) {
        float[] v = AttentionTest.random(rng, w * d);
        hand.param("head_" + role).set(v);
        builtIn.param("att_" + role + "_weight").set(transpose(v, w, d));
      }
      float[] o = AttentionTest.random(rng, d * w);
      hand.param("head_output").set(o);
      builtIn.param("att_output_weight").set(transpose(o, d, w));
      float[] x = AttentionTest.random(rng, n * t * w);
      var shape = new ai.djl.ndarray.types.Shape(n, t, w);
      assertArrayEquals(
          builtIn.forward(nd.create(x, shape))[0].toFloatArray(),
          hand.forward(nd.create(x, shape))[0].toFloatArray(),
          1e-5f);
    }
  }

  @Test
  void gradientsAgreeWithFiniteDifferences() {
    try (ModelRuntime hand = handWritten(3, 4, 2);
        NDManager nd = NDManager.newBaseManager()) {
      assertTrue(new GradientCheck(hand, nd, new long[][] {{2, 3, 4}}, 3).run() > 50);
    }
  }

  @Test
  void theTraceRefusesStacksThatDoNotFit() {
    GraphBuilder b = new GraphBuilder("Att");
    Sym x = b.input(new NodeSource("x", "Att.x()", "@Input"), Shape.of(-1, 5, 4));
    Sym w = b.customParam(HEAD, "w", Shape.of(4, 3), null, ParamInit.MODEL);
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                b.custom(
                    HEAD,
                    "Head",
                    Shape.of(-1, 5, 4),
                    Shape.of(-1, 5, 5),
                    x,
                    List.of(w),
                    (in, p) -> in.batchDot(in.dot(p.get(0)), true)));
    assertTrue(
        e.getMessage()
            .contains(
                "batchDot of [BATCH, 5, 4] and [BATCH, 5, 3] does not fit: the last dimension of "
                    + "the left must equal the last of the right"),
        e.getMessage());
    b.close();
  }
}
