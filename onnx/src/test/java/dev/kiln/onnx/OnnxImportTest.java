package dev.kiln.onnx;

import static dev.kiln.onnx.OnnxBuilder.i;
import static dev.kiln.onnx.OnnxBuilder.ints;
import static dev.kiln.onnx.OnnxBuilder.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.ValueOp;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The translation of ONNX models into Kiln's units, its folding and its refusals. */
class OnnxImportTest {
  private static OnnxGraph translate(ModelProto m) {
    return OnnxImport.translate(m, "m.onnx", "Net.net()", Map.of());
  }

  private static String text(RuleError e) {
    return e.message.format(e.args);
  }

  @Test
  void aCnnBecomesTheUnitsOfItsLayersWithTheirShapes() {
    Random rng = new Random(1);
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 1, 28, 28)
            .random("w", rng, 0.1, 8, 1, 3, 3)
            .random("b", rng, 0.1, 8)
            .random("fc", rng, 0.1, 10, 8 * 14 * 14)
            .node("Conv", List.of("x", "w", "b"), List.of("c"), s("auto_pad", "SAME_UPPER"))
            .node("Relu", List.of("c"), List.of("r"))
            .node(
                "MaxPool",
                List.of("r"),
                List.of("p"),
                ints("kernel_shape", 2, 2),
                ints("strides", 2, 2))
            .node("Flatten", List.of("p"), List.of("f"))
            .node("Gemm", List.of("f", "fc"), List.of("y"), i("transB", 1))
            .output("y", "N", 10)
            .build();
    OnnxGraph g = translate(m);
    assertEquals(List.of("x"), g.inputs().stream().map(OnnxGraph.Input::name).toList());
    assertEquals(TShape.of(-1, 1, 28, 28), g.inputs().get(0).shape());
    assertEquals(5, g.nodes().size());
    ConvOp conv = (ConvOp) g.nodes().get(0).op();
    assertEquals(List.of(1, 1), conv.pad());
    assertEquals(TShape.of(-1, 8, 28, 28), g.nodes().get(0).shape());
    assertEquals(TShape.of(-1, 10), g.nodes().get(4).shape());
    assertEquals(10, ((DenseOp) g.nodes().get(4).op()).units());
    assertEquals(Map.of("weight", "w", "bias", "b"), g.nodes().get(0).params());
    assertEquals("y", g.outputs().get(0).name());
    assertTrue(g.params().containsKey("fc"));
    assertTrue(!g.params().get("fc").transposed());
  }

  @Test
  void theExportersFlattenIdiomFoldsIntoOneReshape() {
    // x.view(x.size(0), -1): Shape -> Gather(0) -> Unsqueeze -> Concat([-1]) -> Reshape.
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 4, 3, 3)
            .int64("zero", new long[] {0})
            .int64("axes", new long[] {0}, 1)
            .int64("minus", new long[] {-1}, 1)
            .node("Shape", List.of("x"), List.of("s"))
            .node("Gather", List.of("s", "zero"), List.of("n"), i("axis", 0))
            .node("Unsqueeze", List.of("n", "axes"), List.of("n1"))
            .node("Concat", List.of("n1", "minus"), List.of("target"), i("axis", 0))
            .node("Reshape", List.of("x", "target"), List.of("y"))
            .output("y", "N", 36)
            .build();
    OnnxGraph g = translate(m);
    assertEquals(1, g.nodes().size());
    assertEquals(ReshapeOp.of(0, -1), g.nodes().get(0).op());
    assertEquals(TShape.of(-1, 36), g.nodes().get(0).shape());
  }

  @Test
  void aMatMulOverAnInitializerIsADenseLayerWithTheWeightTransposed() {
    Random rng = new Random(2);
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 6)
            .random("w", rng, 0.1, 6, 3)
            .random("b", rng, 0.1, 3)
            .node("MatMul", List.of("x", "w"), List.of("h"))
            .node("Add", List.of("h", "b"), List.of("y"))
            .output("y", "N", 3)
            .build();
    OnnxGraph g = translate(m);
    assertEquals(3, g.nodes().size());
    assertTrue(g.params().get("w").transposed());
    assertEquals(ValueOp.of(3).as(1, 3), g.nodes().get(1).op());
    assertEquals(List.of(3), g.params().get("b").fileShape());
  }

  @Test
  void everyUnknownOperatorIsListedAtOnce() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 4)
            .node("Hardmax", List.of("x"), List.of("a"))
            .node("Relu", List.of("a"), List.of("b"))
            .node("Einsum", List.of("b"), List.of("y"))
            .output("y", "N", 4)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxUnknownOps", e.message.id());
    assertTrue(
        text(e).contains("Hardmax (node hardmax_0), Einsum (node einsum_2) in operator set 13"),
        text(e));
  }

  @Test
  void anOperatorSetOutsideSixToTwentyOneIsRefused() {
    ModelProto m =
        new OnnxBuilder(22)
            .input("x", "N", 4)
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", 4)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxOpset", e.message.id());
  }

  @Test
  void aSymbolicSizeBeyondTheBatchAsksForTheSizes() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", "H")
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", "H")
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxSymbolic", e.message.id());
    assertTrue(text(e).contains("input x of m.onnx has shape [N, H]"), text(e));
    OnnxGraph g = OnnxImport.translate(m, "m.onnx", "Net.net()", Map.of("x", TShape.of(-1, 5)));
    assertEquals(TShape.of(-1, 5), g.nodes().get(0).shape());
  }

  @Test
  void aUnitsRuleNamesTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 3, 4, 4)
            .random("w", new Random(3), 0.1, 2, 3, 7, 7)
            .node("Conv", List.of("x", "w"), List.of("y"))
            .output("y", "N", 2, 1, 1)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("KernelTooLarge", e.message.id());
    assertTrue(text(e).startsWith("[kiln:KernelTooLarge] Net.net() conv_0"), text(e));
  }

  @Test
  void paddingThatDiffersAtTheEndsIsRefusedWithTheReason() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 1, 6, 6)
            .random("w", new Random(3), 0.1, 2, 1, 3, 3)
            .node("Conv", List.of("x", "w"), List.of("y"), ints("pads", 0, 0, 1, 1))
            .output("y", "N", 2, 5, 5)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("pad the start and the end of an axis differently"), text(e));
  }

  @Test
  void aGemmTransposingABatchedAIsRefusedNamingTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 3)
            .random("w", new Random(4), 0.1, 4, 5)
            .node("Gemm", List.of("x", "w"), List.of("y"), i("transA", 1))
            .output("y", 3, 5)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("gemm_0"), text(e));
    assertTrue(text(e).contains("transA = 1 over A [BATCH, 3] would sum over the batch"), text(e));
  }

  @Test
  void gemmScalesBecomeScaleNodesAndAComputedBAMatrixProduct() {
    Random rng = new Random(5);
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 4)
            .random("w", rng, 0.1, 3, 4)
            .random("c", rng, 0.1, 3)
            .node("Sigmoid", List.of("w"), List.of("b"))
            .node(
                "Gemm",
                List.of("x", "b", "c"),
                List.of("y"),
                i("transB", 1),
                OnnxBuilder.f("alpha", 2f),
                OnnxBuilder.f("beta", 0.5f))
            .output("y", "N", 3)
            .build();
    OnnxGraph g = translate(m);
    List<dev.kiln.ops.Op> ops = g.nodes().stream().map(OnnxGraph.Node::op).toList();
    assertTrue(ops.contains(dev.kiln.ops.MatMulOp.matrices().transposeB()), ops.toString());
    assertTrue(ops.contains(dev.kiln.ops.ScalarOp.times(2)), ops.toString());
    assertTrue(ops.contains(dev.kiln.ops.ScalarOp.times(0.5)), ops.toString());
    assertEquals(TShape.of(-1, 3), g.nodes().get(g.nodes().size() - 1).shape());
  }

  @Test
  void aSplitIntoUnequalPartsWithoutSizesIsRefusedNamingTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 7)
            .node("Split", List.of("x"), List.of("a", "b"), i("axis", 1))
            .output("a", "N", 4)
            .output("b", "N", 3)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("split_0"), text(e));
    assertTrue(text(e).contains("axis 1 of size 7 does not split into 2 equal parts"), text(e));
  }

  @Test
  void aDepthToSpaceWhoseBlockDoesNotDivideTheChannelsIsRefused() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 6, 2, 2)
            .node("DepthToSpace", List.of("x"), List.of("y"), i("blocksize", 2))
            .output("y", "N", 1, 4, 4)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("depthtospace_0"), text(e));
    assertTrue(text(e).contains("blocksize 2 does not divide the channels"), text(e));
  }

  @Test
  void padsMxnetCannotMakeAreRefusedNamingTheNode() {
    ModelProto channels =
        new OnnxBuilder(13)
            .input("x", "N", 2, 4, 4)
            .int64("pads", new long[] {0, 1, 0, 0, 0, 1, 0, 0}, 8)
            .node("Pad", List.of("x", "pads"), List.of("y"))
            .output("y", "N", 4, 4, 4)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(channels));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("pad_0"), text(e));
    assertTrue(text(e).contains("MXNet pads the spatial axes only"), text(e));
    ModelProto rows =
        new OnnxBuilder(13)
            .input("x", "N", 4, 4)
            .int64("pads", new long[] {0, 0, 1, 1, 0, 0}, 6)
            .node("Pad", List.of("x", "pads"), List.of("y"))
            .output("y", "N", 5, 5)
            .build();
    e = assertThrows(RuleError.class, () -> translate(rows));
    assertTrue(text(e).contains("MXNet pads images [N, C, H, W] and volumes"), text(e));
    ModelProto wrap =
        new OnnxBuilder(19)
            .input("x", "N", 1, 4, 4)
            .int64("pads", new long[] {0, 0, 1, 1, 0, 0, 1, 1}, 8)
            .node("Pad", List.of("x", "pads"), List.of("y"), s("mode", "wrap"))
            .output("y", "N", 1, 6, 6)
            .build();
    e = assertThrows(RuleError.class, () -> translate(wrap));
    assertTrue(text(e).contains("mode wrap"), text(e));
  }

  @Test
  void aTileOfTheBatchIsRefusedNamingTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 3)
            .int64("reps", new long[] {2, 1}, 2)
            .node("Tile", List.of("x", "reps"), List.of("y"))
            .output("y", "N", 3)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("tile_0"), text(e));
    assertTrue(text(e).contains("it repeats the batch (axis 0) 2 times"), text(e));
  }

  @Test
  void aConvolutionBeyondThreeDimensionsIsRefusedNamingTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 1, 3, 3, 3, 3)
            .random("w", new Random(6), 0.1, 2, 1, 2, 2, 2, 2)
            .node("Conv", List.of("x", "w"), List.of("y"))
            .output("y", "N", 2, 2, 2, 2, 2)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("conv_0"), text(e));
    assertTrue(text(e).contains("Kiln imports 1-D, 2-D and 3-D convolutions"), text(e));
  }

  private static OnnxBuilder gru(int opset) {
    Random rng = new Random(8);
    return new OnnxBuilder(opset)
        .input("x", 4, "N", 3)
        .random("w", rng, 0.1, 1, 6, 3)
        .random("r", rng, 0.1, 1, 6, 2)
        .int64("lengths", new long[] {4, 4}, 2);
  }

  @Test
  void aGruResettingBeforeItsRecurrentWeightsIsRefusedNamingTheNode() {
    ModelProto m =
        gru(13)
            .node("GRU", List.of("x", "w", "r"), List.of("y"), i("hidden_size", 2))
            .output("y", 4, 1, "N", 2)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("gru_0"), text(e));
    assertTrue(text(e).contains("export with linear_before_reset = 1"), text(e));
  }

  @Test
  void sequenceLengthsAndAReadFinalStateAreRefusedNamingTheNode() {
    ModelProto lengths =
        gru(13)
            .node(
                "GRU",
                List.of("x", "w", "r", "", "lengths"),
                List.of("y"),
                i("hidden_size", 2),
                i("linear_before_reset", 1))
            .output("y", 4, 1, "N", 2)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(lengths));
    assertTrue(text(e).contains("its sequence_lens (lengths) is given"), text(e));
    ModelProto state =
        gru(13)
            .node(
                "GRU",
                List.of("x", "w", "r"),
                List.of("y", "h"),
                i("hidden_size", 2),
                i("linear_before_reset", 1))
            .output("h", 1, "N", 2)
            .build();
    assertEquals(TShape.of(1, -1, 2), translate(state).nodes().get(4).shape());
    ModelProto cell =
        new OnnxBuilder(13)
            .input("x", 4, "N", 3)
            .random("w", new Random(9), 0.1, 1, 8, 3)
            .random("r", new Random(9), 0.1, 1, 8, 2)
            .node("LSTM", List.of("x", "w", "r"), List.of("y", "h", "c"), i("hidden_size", 2))
            .output("c", 1, "N", 2)
            .build();
    e = assertThrows(RuleError.class, () -> translate(cell));
    assertTrue(text(e).contains("its output 2, the final cell state (c), is read"), text(e));
  }

  @Test
  void aRecurrentLayersWeightsBecomeOneFusedVectorInMxnetsGateOrder() {
    // LSTM, one unit, one feature: ONNX rows i, o, f, c; MXNet's i, f, c, o.
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", 2, "N", 1)
            .initializer("w", new float[] {1, 2, 3, 4}, 1, 4, 1)
            .initializer("r", new float[] {5, 6, 7, 8}, 1, 4, 1)
            .initializer("b", new float[] {9, 10, 11, 12, 13, 14, 15, 16}, 1, 8)
            .node("LSTM", List.of("x", "w", "r", "b"), List.of("y"), i("hidden_size", 1))
            .output("y", 2, 1, "N", 1)
            .build();
    OnnxGraph g = translate(m);
    OnnxGraph.Param p =
        g.params().values().stream().filter(q -> q.recurrent() != null).findFirst().orElseThrow();
    float[] flat =
        p.recurrent()
            .flatten(
                new float[] {1, 2, 3, 4},
                new float[] {5, 6, 7, 8},
                new float[] {9, 10, 11, 12, 13, 14, 15, 16});
    assertEquals(
        Arrays.toString(new float[] {1, 3, 4, 2, 5, 7, 8, 6, 9, 11, 12, 10, 13, 15, 16, 14}),
        Arrays.toString(flat));
    assertEquals("w", p.recurrent().w());
  }

  @Test
  void zeroInitialStatesAreTheDefaultAndOthersAreRefused() {
    ModelProto zeros =
        gru(13)
            .initializer("h0", new float[4], 1, 2, 2)
            .node(
                "GRU",
                List.of("x", "w", "r", "", "", "h0"),
                List.of("y"),
                i("hidden_size", 2),
                i("linear_before_reset", 1))
            .output("y", 4, 1, "N", 2)
            .build();
    OnnxGraph g = translate(zeros);
    assertEquals(TShape.of(4, 1, -1, 2), g.nodes().get(g.nodes().size() - 1).shape());
    ModelProto ones =
        gru(13)
            .initializer("h0", new float[] {1, 1, 1, 1}, 1, 2, 2)
            .node(
                "GRU",
                List.of("x", "w", "r", "", "", "h0"),
                List.of("y"),
                i("hidden_size", 2),
                i("linear_before_reset", 1))
            .output("y", 4, 1, "N", 2)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(ones));
    assertTrue(text(e).contains("its initial_h (h0) is given"), text(e));
  }

  @Test
  void anExpandOfAnAxisLargerThanOneIsRefusedNamingTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 2, 3)
            .int64("shape", new long[] {4, 3}, 2)
            .node("Expand", List.of("x", "shape"), List.of("y"))
            .output("y", "N", 4, 3)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(m));
    assertEquals("OnnxNode", e.message.id());
    assertTrue(text(e).contains("expand_0"), text(e));
    assertTrue(text(e).contains("axis 1 of [BATCH, 2, 3] cannot grow to 4"), text(e));
  }

  @Test
  void aGatherFromAConstantFoldsAlongAnyAxis() {
    OnnxBuilder b =
        new OnnxBuilder(13)
            .input("x", "N", 2, 2)
            .initializer("table", new float[] {1, 2, 3, 4, 5, 6}, 2, 3)
            .int64("cols", new long[] {2, 0}, 2)
            .int64("bad", new long[] {3});
    ModelProto m =
        b.node("Gather", List.of("table", "cols"), List.of("t"), i("axis", 1))
            .node("Add", List.of("x", "t"), List.of("y"))
            .output("y", "N", 2, 2)
            .build();
    OnnxGraph g = translate(m);
    float[] folded =
        g.params().values().stream()
            .filter(p -> p.values() != null)
            .findFirst()
            .orElseThrow()
            .values();
    assertEquals(Arrays.toString(new float[] {3, 1, 6, 4}), Arrays.toString(folded));
    ModelProto bad =
        b.node("Gather", List.of("table", "bad"), List.of("z"), i("axis", 1))
            .output("z", 2)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translate(bad));
    assertTrue(text(e).contains("index 3 is outside the 3 values of axis 1"), text(e));
  }

  @Test
  void aTruncatedOrForeignFileNamesWhereItBreaks() {
    byte[] whole =
        new OnnxBuilder(13)
            .input("x", "N", 4)
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", 4)
            .build()
            .toByteArray();
    OnnxFormatException cut =
        assertThrows(
            OnnxFormatException.class,
            () -> OnnxFile.parse(Arrays.copyOf(whole, whole.length / 2), "m.onnx"));
    assertTrue(
        cut.getMessage().startsWith("m.onnx is not an ONNX model: it breaks at byte "),
        cut.getMessage());
    OnnxFormatException text =
        assertThrows(
            OnnxFormatException.class,
            () -> OnnxFile.parse("{\"nodes\": []}".getBytes(), "m.onnx"));
    assertTrue(text.getMessage().startsWith("m.onnx is not an ONNX model"), text.getMessage());
    assertThrows(OnnxFormatException.class, () -> OnnxFile.parse(new byte[0], "m.onnx"));
  }

  @Test
  void randomBytesGiveOneClearErrorEach() {
    Random rng = new Random(7);
    byte[] whole =
        new OnnxBuilder(13)
            .input("x", "N", 4)
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", 4)
            .build()
            .toByteArray();
    for (int k = 0; k < 300; k++) {
      byte[] b = whole.clone();
      for (int j = 0; j < 1 + rng.nextInt(4); j++) {
        b[rng.nextInt(b.length)] = (byte) rng.nextInt(256);
      }
      try {
        ModelProto m = OnnxFile.parse(b, "m.onnx");
        translate(m);
      } catch (OnnxFormatException | RuleError e) {
        // One clear error: the file named, no other exception type.
        String msg = e instanceof RuleError r ? text(r) : e.getMessage();
        assertTrue(msg.contains("m.onnx") || msg.contains("Net.net()"), msg);
      }
    }
  }

  // Free dimensions: named sizes of the file, or sizes the model declares.

  /** [BATCH, c, H, W] with H and W free, as the processor gives an input it declares so. */
  private static TShape free(int c) {
    return TShape.of(
        TShape.BATCH, c, TShape.size(SizeExpr.dim("H")), TShape.size(SizeExpr.dim("W")));
  }

  private static OnnxGraph translateFree(ModelProto m, int c) {
    return OnnxImport.translate(m, "m.onnx", "Net.net()", Map.of("x", free(c)));
  }

  @Test
  void aDimParamIsAJavaNameInUpperCase() {
    assertEquals("HEIGHT", OnnxImport.dimName("height", Set.of()));
    assertEquals("IMAGE_SIZE", OnnxImport.dimName("image-size", Set.of()));
    assertEquals("_2D", OnnxImport.dimName("2d", Set.of()));
    assertEquals("H_2", OnnxImport.dimName("h", Set.of("H")));
    assertEquals("H_3", OnnxImport.dimName("h", Set.of("H", "H_2")));
    assertEquals("BATCH_2", OnnxImport.dimName("batch", Set.of()));
    assertEquals("STEPS_2", OnnxImport.dimName("steps", Set.of()));
  }

  @Test
  void theFilesNamedSizesAreFreeDimensionsInTheOrderTheyAppear() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 3, "height", "width")
            .input("mask", "N", 1, "height", "width")
            .random("w", new Random(1), 0.1, 2, 2)
            .input("z", "N", "width")
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", 3, "height", "width")
            .build();
    OnnxImport.DeclaredInputs d = OnnxImport.inputShapes(m, "m.onnx", "Net");
    assertEquals(Map.of("HEIGHT", -10, "WIDTH", -11), d.dims());
    assertEquals(List.of("HEIGHT", "WIDTH"), List.copyOf(d.dims().keySet()));
    assertEquals(TShape.of(-1, 3, -10, -11), d.shapes().get("x"));
    assertEquals(TShape.of(-1, 1, -10, -11), d.shapes().get("mask"));
    assertEquals(TShape.of(-1, -11), d.shapes().get("z"));
  }

  @Test
  void theBatchsNameElsewhereAndAnUnnamedSizeAreRefused() {
    ModelProto batchTwice =
        new OnnxBuilder(13)
            .input("x", "N", 3, "N")
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", 3, "N")
            .build();
    RuleError e =
        assertThrows(RuleError.class, () -> OnnxImport.inputShapes(batchTwice, "m.onnx", "Net"));
    assertEquals("OnnxSymbolic", e.message.id());
    ModelProto unnamed =
        new OnnxBuilder(13)
            .input("x", "N", 3, "")
            .node("Relu", List.of("x"), List.of("y"))
            .output("y", "N", 3, "")
            .build();
    e = assertThrows(RuleError.class, () -> OnnxImport.inputShapes(unnamed, "m.onnx", "Net"));
    assertEquals("OnnxSymbolic", e.message.id());
    assertTrue(text(e).contains("kiln import --input x=BATCH,3,H,W"), text(e));
  }

  /** Units that take free dimensions follow them: the sizes are expressions, never numbers. */
  @Test
  void convolutionsAndPoolingFollowFreeSizes() {
    Random rng = new Random(4);
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 3, "h", "w")
            .random("w", rng, 0.1, 4, 3, 3, 3)
            .node("Conv", List.of("x", "w"), List.of("c"), ints("kernel_shape", 3, 3))
            .node("Relu", List.of("c"), List.of("r"))
            .node(
                "MaxPool",
                List.of("r"),
                List.of("y"),
                ints("kernel_shape", 2, 2),
                ints("strides", 2, 2))
            .output("y", "N", 4, "a", "b")
            .build();
    OnnxGraph g = translateFree(m, 3);
    assertEquals(
        "[BATCH, 4, H / 2 - 1, W / 2 - 1]", g.nodes().get(g.nodes().size() - 1).shape().toString());
  }

  /** A Shape of a tensor with free sizes would fold a placeholder: refused, naming the node. */
  @Test
  void aShapeOfFreeSizesIsRefusedNamingTheNode() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 2, "h", "w")
            .int64("two", new long[] {2}, 1)
            .node("Shape", List.of("x"), List.of("s"))
            .node("Gather", List.of("s", "two"), List.of("h"))
            .node("Reshape", List.of("x", "s"), List.of("y"))
            .output("y", "N", 2, "h", "w")
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translateFree(m, 2));
    assertEquals("OnnxFreeDim", e.message.id());
    assertTrue(
        text(e)
            .startsWith(
                "[kiln:OnnxFreeDim] Net.net(): node shape_0 of m.onnx (Shape, operator set 13)"
                    + " computes with size H"
                    + " of x [BATCH, 2, H, W], a free dimension"),
        text(e));
    // The batch and fixed sizes still fold: Shape's start and end keep to them.
    ModelProto channels =
        new OnnxBuilder(15)
            .input("x", "N", 2, "h", "w")
            .node("Shape", List.of("x"), List.of("s"), i("start", 0), i("end", 2))
            .node("ConstantOfShape", List.of("s"), List.of("y"))
            .output("y", "N", 2)
            .build();
    RuleError batch = assertThrows(RuleError.class, () -> translateFree(channels, 2));
    assertEquals("OnnxNode", batch.message.id(), text(batch));
  }

  /** Sizes to resize to are fixed, so the factor depends on a free size: refused. */
  @Test
  void aResizeToFixedSizesOfAFreeInputIsRefused() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 2, "h", "w")
            .int64("sizes", new long[] {1, 2, 16, 16}, 4)
            .node("Resize", List.of("x", "", "", "sizes"), List.of("y"))
            .output("y", "N", 2, 16, 16)
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translateFree(m, 2));
    assertEquals("OnnxFreeDim", e.message.id());
    assertTrue(text(e).contains("node resize_0 of m.onnx (Resize"), text(e));
  }

  /** A unit whose rules do not take free dimensions is refused as the processor refuses it. */
  @Test
  void aUnitThatTakesNoFreeDimensionsIsRefused() {
    ModelProto m =
        new OnnxBuilder(13)
            .input("x", "N", 2, "h", "w")
            .random("gain", new Random(2), 1, 1, 2, 1, 1)
            .node("Mul", List.of("x", "gain"), List.of("y"))
            .output("y", "N", 2, "h", "w")
            .build();
    RuleError e = assertThrows(RuleError.class, () -> translateFree(m, 2));
    assertEquals("FreeDimUnsupported", e.message.id());
    assertTrue(
        text(e)
            .startsWith(
                "[kiln:FreeDimUnsupported] Net.net() mul_0: @Multiply (ONNX Mul)"
                    + " does not take free"),
        text(e));
  }
}
