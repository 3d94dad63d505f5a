package dev.kiln.runtime.graph.precision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.BatchNormOp;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.DropoutOp;
import dev.kiln.ops.PoolOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * bf16 mixed-precision training: what the AMP pass makes of a LeNet with batch norm and dropout
 * (convolutions and dense layers in bfloat16, the rest float32, the same float32 arguments), its
 * training against float32's from the same start (the same losses to bfloat16's precision, but not
 * to the bit), and the refusals on machines that cannot run it.
 */
class PrecisionTest {
  private static final int BATCH = 16;

  /**
   * conv 8 (5x5, relu) → batch norm → max pool → dropout → dense 32 (relu) → dense 10 → softmax.
   */
  private static Graph lenet(boolean training) {
    return lenet(training, 8);
  }

  /** {@link #lenet(boolean)} with {@code filters} in its convolution. */
  private static Graph lenet(boolean training, int filters) {
    try (GraphBuilder b = new GraphBuilder("Low", training)) {
      Sym x = b.input(new NodeSource("x", "Low.x()", "@Input"), Shape.of(Shape.BATCH, 1, 12, 12));
      Sym c = b.node(src("conv"), ConvOp.filters(filters).kernel(5, 5).activation(Act.RELU), x);
      c = b.node(src("bn"), BatchNormOp.channelAxis(1), c);
      c = b.node(src("pool"), PoolOp.max(2, 2), c);
      c = b.node(src("drop"), DropoutOp.rate(0.0), c);
      Sym d = b.node(src("hidden"), DenseOp.units(32).activation(Act.RELU), c);
      d = b.node(src("logits"), DenseOp.units(10), d);
      return b.build(List.of(b.node(src("probs"), SoftmaxOp.axis(-1).classifierHead(), d)));
    }
  }

  private static NodeSource src(String node) {
    return new NodeSource(node, "Low." + node + "()", "@" + node);
  }

  private static boolean supported() {
    return Precision.BF16.refusal() == null;
  }

  @Test
  void theFloat32OpsAreEveryOperatorButTheLowAndTheFollowingOnes() {
    try (Graph g = lenet(true)) {
      assertEquals(
          List.of("BatchNorm", "Dropout", "SoftmaxOutput"), Precision.float32Ops(g.toJson()));
    }
  }

  @Test
  void aFirstConvolutionWithAMultipleOf16FiltersStaysFloat32() {
    try (Graph eight = lenet(true, 8);
        Graph sixteen = lenet(true, 16);
        Graph twenty = lenet(true, 20)) {
      assertEquals(List.of(), Precision.float32Convolutions(eight.toJson()));
      assertEquals(List.of("conv"), Precision.float32Convolutions(sixteen.toJson()));
      assertEquals(List.of(), Precision.float32Convolutions(twenty.toJson()));
    }
  }

  @Test
  void theFirstConvolutionKeptFloat32ReadsItsWeightUncast() {
    assumeTrue(supported(), Precision.BF16.refusal());
    try (Graph low = Precision.BF16.apply(lenet(true, 16))) {
      SymbolFile json = SymbolFile.parse(low.toJson());
      SymbolFile.Node conv = json.node("conv");
      SymbolFile.Node weight = json.node(conv.inputs().get(1));
      assertEquals("conv_weight", weight.name(), "the convolution reads its weight directly");
      assertTrue(
          json.nodes().stream()
              .anyMatch(n -> n.name().equals("hidden") && n.op().equals("FullyConnected")),
          "the dense layers are still there");
      long casts = json.nodes().stream().filter(n -> n.op().equals("amp_cast")).count();
      assertTrue(casts >= 4, "the dense layers still read bfloat16 casts: " + casts);
    }
  }

  @Test
  void convolutionsAndDenseLayersReadBfloat16CastsOfTheSameFloat32Arguments() {
    assumeTrue(supported(), Precision.BF16.refusal());
    Graph fp32 = lenet(true);
    List<String> arguments = fp32.arguments();
    try (Graph low = Precision.BF16.apply(fp32)) {
      assertEquals(arguments, low.arguments());
      String json = low.toJson();
      // conv_weight, hidden_weight and logits_weight, their biases and the input are cast down;
      // what batch norm and the softmax read is cast back up.
      assertTrue(json.split("\"op\": \"amp_cast\"").length - 1 >= 7, json);
      assertTrue(json.contains("\"dtype\": \"bfloat16\""), json);
      assertTrue(json.contains("\"dtype\": \"float32\""), json);
    }
  }

  @Test
  void bf16TrainsLikeFloat32ToBfloat16sPrecision() {
    assumeTrue(supported(), Precision.BF16.refusal());
    Random rng = new Random(3);
    float[] x = new float[BATCH * 144];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat();
    }
    int[] y = rng.ints(BATCH, 0, 10).toArray();
    try (ModelRuntime full = new ModelRuntime("Low", lenet(false), Init.xavier(), 5);
        ModelRuntime low = new ModelRuntime("Low", lenet(false), Init.xavier(), 5);
        Sgd sgd = new Sgd(0.1f)) {
      low.trainingPrecision(Precision.BF16);
      Classifier a = full.classifier(() -> lenet(true));
      Classifier b = low.classifier(() -> lenet(true));
      float[] before = full.param("conv_weight").get();
      assertArrayEqualsExactly(before, low.param("conv_weight").get());
      double first = a.trainBatch(x, y, sgd).meanLoss();
      // bfloat16 keeps 8 bits of mantissa: 2^-8 of each product, averaged over many.
      assertEquals(first, b.trainBatch(x, y, sgd).meanLoss(), 1e-2 * first, "the first loss");
      float[] wa = full.param("conv_weight").get();
      float[] wb = low.param("conv_weight").get();
      // The updates as vectors: bf16's differs from float32's by 6% of its length here (its
      // gradients pass bfloat16 products through the batch norm's backward); 15% is the bound.
      double off = 0;
      double length = 0;
      for (int i = 0; i < wa.length; i++) {
        off += Math.pow(wa[i] - wb[i], 2);
        length += Math.pow(wa[i] - before[i], 2);
      }
      double relative = Math.sqrt(off / length);
      assertTrue(relative > 0, "bf16 computed exactly what float32 did: it did not run in bf16");
      assertTrue(relative < 0.15, "the first update differs by " + relative + " of its length");
      double last = 0;
      for (int step = 0; step < 20; step++) {
        last = b.trainBatch(x, y, sgd).meanLoss();
      }
      assertTrue(last < 0.5 * first, "bf16 training went from loss " + first + " to " + last);
      assertEquals(Precision.BF16, low.trainingPrecision());
      IllegalStateException late =
          assertThrows(IllegalStateException.class, () -> full.trainingPrecision(Precision.BF16));
      assertEquals(
          "Low already trains in fp32: set the training precision before the first classifier() "
              + "or trainer() call",
          late.getMessage());
    }
  }

  private static void assertArrayEqualsExactly(float[] a, float[] b) {
    org.junit.jupiter.api.Assertions.assertArrayEquals(a, b, "both models start from seed 5");
  }

  @Test
  void aCpuWithoutAvx512Bf16OrMxnetWithoutOneDnnIsRefusedByName() {
    String epyc = "processor\t: 0\nmodel name\t: AMD EPYC 7B12\nflags\t\t: fpu avx2 avx512f\n";
    assertEquals(
        "bf16 training needs a CPU with AVX-512 BF16 (flag avx512_bf16 in /proc/cpuinfo), and AMD "
            + "EPYC 7B12 has none: MXNet would run it on a slow emulation or not at all; train in "
            + "fp32",
        Precision.BF16.refusal(epyc, null));
    String bf16 = epyc.replace("avx512f", "avx512f avx512_bf16");
    assertNull(Precision.BF16.refusal(bf16, null));
    assertNull(Precision.BF16.refusal(bf16, "1"));
    assertTrue(Precision.BF16.refusal(bf16, "0").contains("MXNET_MKLDNN_ENABLED=0"));
    assertTrue(Precision.BF16.refusal(null, null).contains("cannot tell"));
    assertNull(Precision.FP32.refusal(epyc, "0"));
    assertEquals(Precision.BF16, Precision.of("BF16"));
    assertEquals(
        "precision must be fp32 or bf16, got 'fp16'",
        assertThrows(IllegalArgumentException.class, () -> Precision.of("fp16")).getMessage());
  }
}
