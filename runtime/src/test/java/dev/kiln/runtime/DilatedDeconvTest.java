package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DeconvOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A dilated transposed convolution: right with oneDNN, refused without it, where MXNet 1.9.1 gets
 * it wrong (apache/mxnet#11203). The case is that issue's: one value 1 in the middle of a 3x3
 * image, a 3x3 kernel 1..9, stride 2, pad 2, dilation 2, whose answer is the kernel spread over a
 * 5x5 output with a gap between taps.
 */
class DilatedDeconvTest {
  private static final float[] IMPULSE = {0, 0, 0, 0, 1, 0, 0, 0, 0};
  private static final float[] KERNEL = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  private static final float[] SPREAD = {
    1, 0, 2, 0, 3, 0, 0, 0, 0, 0, 4, 0, 5, 0, 6, 0, 0, 0, 0, 0, 7, 0, 8, 0, 9
  };

  /** Two filters, both the kernel: one filter per group would run on MXNet's own kernel. */
  private static DeconvOp spec() {
    return DeconvOp.filters(2).kernel(3, 3).stride(2, 2).pad(2, 2).dilation(2, 2).withoutBias();
  }

  private static ModelRuntime model(DeconvOp spec) {
    GraphBuilder b = new GraphBuilder("Spread");
    Sym x = b.input(new NodeSource("x", "Spread.x()", "@Input"), Shape.of(-1, 1, 3, 3));
    Sym y = b.node(new NodeSource("up", "Spread.up()", "@Deconv2D"), spec, x);
    return new ModelRuntime("Spread", b.build(List.of(y)), Init.xavier(), 1);
  }

  /** MXNet's own operator, called directly: what a model would compute without Kiln's refusal. */
  private static float[] mxnetDirectly() {
    try (Tensor x = Tensor.zeros(Shape.of(1, 1, 3, 3));
        Tensor w = Tensor.zeros(Shape.of(1, 1, 3, 3));
        Tensor y = Tensor.zeros(Shape.of(1, 1, 5, 5))) {
      x.copyFrom(IMPULSE);
      w.copyFrom(KERNEL);
      new PreparedOp(
              "Deconvolution",
              new NDArrayHandle[] {x.handle(), w.handle()},
              new NDArrayHandle[] {y.handle()})
          .run(
              new String[] {"kernel", "stride", "pad", "dilate", "num_filter", "no_bias"},
              new String[] {"(3,3)", "(2,2)", "(2,2)", "(2,2)", "1", "True"});
      return y.toFloatArray();
    }
  }

  /** Run with {@code MXNET_MKLDNN_ENABLED=0}: prints what MXNet and Kiln do there. */
  public static void main(String[] args) {
    System.out.println(Arrays.equals(mxnetDirectly(), SPREAD) ? "MXNET_RIGHT" : "MXNET_WRONG");
    try (ModelRuntime m = model(spec())) {
      System.out.println("BUILT");
    } catch (ModelException e) {
      System.out.println("REFUSED " + e.getMessage());
    }
    try (ModelRuntime m = model(DeconvOp.filters(1).kernel(3, 3).stride(2, 2))) {
      System.out.println("UNDILATED_BUILT");
    }
  }

  @Test
  void withOneDnnItIsTheKernelSpreadWithGaps() {
    assertArrayEquals(SPREAD, mxnetDirectly());
    try (ModelRuntime m = model(spec());
        NDManager nd = NDManager.newBaseManager()) {
      float[] both = new float[18];
      System.arraycopy(KERNEL, 0, both, 0, 9);
      System.arraycopy(KERNEL, 0, both, 9, 9);
      m.param("up_weight").set(both);
      float[] y =
          m.forward(nd.create(IMPULSE, new ai.djl.ndarray.types.Shape(1, 1, 3, 3)))[0]
              .toFloatArray();
      assertArrayEquals(SPREAD, Arrays.copyOfRange(y, 0, 25));
      assertArrayEquals(SPREAD, Arrays.copyOfRange(y, 25, 50));
    }
  }

  @Test
  void oneFilterPerGroupWithADilationIsRefusedEvenWithOneDnn() {
    // The processor's own rule, worded as its compile-time error.
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> model(DeconvOp.filters(1).kernel(3, 3).stride(2, 2).dilation(2, 2)).close());
    assertTrue(
        e.getMessage().startsWith("[kiln:DilatedOneFilter] Spread.up() @Deconv2D: "),
        e::getMessage);
  }

  @Test
  void withoutOneDnnMxnetIsWrongAndKilnRefusesIt() throws IOException, InterruptedException {
    TestJvm.Outcome child =
        TestJvm.run(DilatedDeconvTest.class, Map.of("MXNET_MKLDNN_ENABLED", "0"), 120);
    String out = child.output();
    assertTrue(child.finished(), out);
    assertEquals(0, child.exitValue(), out);
    // If this fails, MXNet got it right: the refusal in DeconvOp can go.
    assertTrue(out.contains("MXNET_WRONG"), out);
    assertTrue(
        out.contains(
            "REFUSED Spread.up() @Deconv2D: dilation [2, 2] needs MXNet's oneDNN deconvolution, but "
                + "MXNET_MKLDNN_ENABLED=0 selects the native one, which computes dilated "
                + "transposed convolutions wrongly in MXNet 1.9.1 (apache/mxnet#11203); unset "
                + "MXNET_MKLDNN_ENABLED or use dilation 1"),
        out);
    assertTrue(out.contains("UNDILATED_BUILT"), out);
  }
}
