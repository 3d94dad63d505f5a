package dev.kiln.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.onnx.proto.Onnx.GraphProto;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.NodeProto;
import dev.kiln.ops.file.SymbolFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The export's refusals and its own check of ONNX's graph rules, on symbols written here (ONNX
 * Runtime runs exported files in e2e's OnnxExportTest).
 */
class OnnxExportRulesTest {
  private static final String DENSE =
      "{\"nodes\":[{\"op\":\"null\",\"name\":\"x\",\"inputs\":[]},"
          + "{\"op\":\"null\",\"name\":\"w\",\"inputs\":[]},"
          + "{\"op\":\"null\",\"name\":\"b\",\"inputs\":[]},"
          + "{\"op\":\"FullyConnected\",\"name\":\"fc\",\"attrs\":{\"num_hidden\":\"2\"},"
          + "\"inputs\":[[0,0,0],[1,0,0],[2,0,0]]},"
          + "{\"op\":\"%s\",\"name\":\"out\",\"attrs\":{%s},\"inputs\":[[3,0,0]]}],"
          + "\"heads\":[[4,0,0]]}";

  private static final Map<String, OnnxExport.Array> PARAMS =
      Map.of(
          "w", new OnnxExport.Array(new long[] {2, 3}, new float[6]),
          "b", new OnnxExport.Array(new long[] {2}, new float[2]));

  private static ModelProto export(String op, String attrs, int opset) {
    return OnnxExport.export(
        "t",
        SymbolFile.parse(String.format(DENSE, op, attrs)),
        List.of(new OnnxExport.Input("x", new long[] {-1, 3})),
        List.of("y"),
        PARAMS,
        opset);
  }

  @Test
  void aMappedGraphHasItsInputsOutputsAndInitializers() {
    ModelProto m = export("Activation", "\"act_type\":\"tanh\"", 17);
    GraphProto g = m.getGraph();
    assertEquals(17, m.getOpsetImport(0).getVersion());
    assertEquals(
        "batch", g.getInput(0).getType().getTensorType().getShape().getDim(0).getDimParam());
    assertEquals(
        List.of("Gemm", "Tanh", "Identity"),
        g.getNodeList().stream().map(NodeProto::getOpType).toList());
    assertEquals("y", g.getOutput(0).getName());
    assertEquals(2, g.getInitializerCount());
  }

  @Test
  void anUnknownOperatorIsRefusedByNodeName() {
    OnnxExportException e =
        assertThrows(OnnxExportException.class, () -> export("_np_cumsum", "", 17));
    assertTrue(
        e.getMessage().startsWith("node 'out' (_np_cumsum): no ONNX mapping for MXNet operator"),
        e.getMessage());
  }

  @Test
  void anUnexpressibleAttributeIsRefusedWithWhy() {
    OnnxExportException e =
        assertThrows(
            OnnxExportException.class, () -> export("Activation", "\"act_type\":\"swish\"", 17));
    assertEquals(
        "node 'out' (Activation): activation swish has no ONNX operator here", e.getMessage());
  }

  @Test
  void quantisedNodesAreRefused() {
    OnnxExportException e =
        assertThrows(OnnxExportException.class, () -> export("_contrib_quantize_v2", "", 17));
    assertTrue(e.getMessage().contains("int8 (quantised) and fused models"), e.getMessage());
  }

  @Test
  void opsetsOutsideThirteenToTwentyOneAreRefused() {
    for (int opset : new int[] {12, 22}) {
      OnnxExportException e =
          assertThrows(OnnxExportException.class, () -> export("Activation", "", opset));
      assertTrue(e.getMessage().contains("choose 13 to 21"), e.getMessage());
    }
  }

  @Test
  void theGraphCheckFindsAValueDefinedTwiceOrReadTooEarly() {
    GraphProto twice =
        GraphProto.newBuilder()
            .addNode(NodeProto.newBuilder().setName("a").addOutput("v"))
            .addNode(NodeProto.newBuilder().setName("b").addOutput("v"))
            .build();
    assertThrows(OnnxExportException.class, () -> OnnxExport.check(twice));
    GraphProto early =
        GraphProto.newBuilder()
            .addNode(NodeProto.newBuilder().setName("a").addInput("u").addOutput("v"))
            .addNode(NodeProto.newBuilder().setName("b").addOutput("u"))
            .build();
    OnnxExportException e = assertThrows(OnnxExportException.class, () -> OnnxExport.check(early));
    assertEquals("node 'a' reads 'u' before it is defined", e.getMessage());
  }
}
