package dev.kiln.runtime.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ActivationOp;
import dev.kiln.ops.Activations;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.mxnet.ExecutorHandle;
import dev.kiln.runtime.mxnet.HandleArray;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Why Kiln makes SELU of an ELU and a scale: MXNet 1.9.1's {@code LeakyReLU(act_type = selu)}
 * computes a wrong gradient below zero. If MXNet's operator is ever right, the first test fails and
 * SELU can go back to it.
 */
class ActivationsTest {
  private static final float[] X = {-2.5f, -1.2f, -0.3f, 0.2f, 0.9f};

  /** The input gradient of {@code y = node(x)} for head gradient 1, and the output. */
  private static float[][] forwardBackward(BiFunction<GraphBuilder, Sym, Sym> node) {
    try (GraphBuilder b = new GraphBuilder("Probe")) {
      Sym x = b.input(new NodeSource("x", "Probe.x()", "@Input"), Shape.of(-1, X.length));
      Graph g = b.build(List.of(node.apply(b, x)));
      try (ModelRuntime m = new ModelRuntime("Probe", g, Init.xavier(), 0);
          NDManager nd = NDManager.newBaseManager()) {
        m.setTraining(true);
        NDArray y = m.forward(nd.create(X, new ai.djl.ndarray.types.Shape(1, X.length)))[0];
        NDArray[] grads = m.backward(nd.ones(new ai.djl.ndarray.types.Shape(1, X.length)));
        return new float[][] {y.toFloatArray(), grads[0].toFloatArray()};
      }
    }
  }

  private static double seluDerivative(double x) {
    double la = Activations.SELU_LAMBDA * Activations.SELU_ALPHA;
    return x > 0 ? Activations.SELU_LAMBDA : la * Math.exp(x);
  }

  /** MXNet's own {@code LeakyReLU(act_type = selu)} over {@link #X}: its output and gradient. */
  private static float[][] mxnetsSelu() {
    int n = X.length;
    try (SymbolHandle x = SymbolHandle.variable("x");
        SymbolHandle y =
            SymbolHandle.operator("LeakyReLU", new String[] {"act_type"}, new String[] {"selu"});
        NDArrayHandle in = NDArrayHandle.create(new int[] {1, n}, 0);
        NDArrayHandle grad = NDArrayHandle.create(new int[] {1, n}, 0);
        NDArrayHandle head = NDArrayHandle.create(new int[] {1, n}, 0)) {
      y.compose("y", null, new SymbolHandle[] {x});
      in.copyFrom(X, n);
      head.copyFrom(new float[] {1, 1, 1, 1, 1}, n);
      try (ExecutorHandle exec =
          ExecutorHandle.bind(
              y,
              0,
              new NDArrayHandle[] {in},
              new NDArrayHandle[] {grad},
              new int[] {1},
              new NDArrayHandle[0])) {
        exec.forward(true);
        float[] out = new float[n];
        NDArrayHandle[] outs = exec.outputs();
        try (NDArrayHandle o = outs[0]) {
          o.copyTo(out, n);
        }
        exec.backward(HandleArray.of(head));
        float[] g = new float[n];
        grad.copyTo(g, n);
        return new float[][] {out, g};
      }
    }
  }

  @Test
  void mxnetsOwnSeluGradientIsLambdaTimesOutputPlusAlphaWhichIsWrong() {
    float[][] r = mxnetsSelu();
    for (int i = 0; i < X.length; i++) {
      double y = r[0][i];
      double mxnets =
          X[i] > 0
              ? Activations.SELU_LAMBDA
              : Activations.SELU_LAMBDA * (y + Activations.SELU_ALPHA);
      assertEquals(mxnets, r[1][i], 1e-4, "MXNet's selu gradient at " + X[i]);
      if (X[i] < 0) {
        assertEquals(
            true,
            Math.abs(r[1][i] - seluDerivative(X[i])) > 1e-3,
            "MXNet's selu gradient is right now at " + X[i] + ": use its operator again");
      }
    }
  }

  @Test
  void kilnsSeluHasTheRightGradient() {
    float[][] r =
        forwardBackward(
            (b, x) ->
                b.node(
                    new NodeSource("y", "Probe.y()", "@Activation(Act.SELU)"),
                    ActivationOp.of(Act.SELU),
                    x));
    for (int i = 0; i < X.length; i++) {
      assertEquals(seluDerivative(X[i]), r[1][i], 1e-4, "selu'(" + X[i] + ")");
    }
  }
}
