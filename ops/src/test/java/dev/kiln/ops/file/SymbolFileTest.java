package dev.kiln.ops.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Symbol files in every format MXNet 0.8 to 1.9 writes, read as MXNet 1.9.1's loader reads them.
 */
class SymbolFileTest {
  @Test
  void readsTheCurrentFormat() {
    SymbolFile f =
        SymbolFile.parse(
            """
            {"nodes": [
              {"op": "null", "name": "data", "inputs": []},
              {"op": "null", "name": "fc_weight", "attrs": {"num_hidden": "3"}, "inputs": []},
              {"op": "FullyConnected", "name": "fc",
               "attrs": {"num_hidden": "3", "no_bias": "True", "__lr_mult__": "2"},
               "inputs": [[0, 0, 0], [1, 0, 0]]}],
             "arg_nodes": [0, 1], "node_row_ptr": [0, 1, 2, 3], "heads": [[2, 0, 0]],
             "attrs": {"mxnet_version": ["int", 10901]}}
            """);
    assertEquals(10901, f.version());
    assertEquals(3, f.nodes().size());
    assertEquals(Map.of("num_hidden", "3", "no_bias", "True"), f.nodes().get(2).attrs());
    assertEquals(Map.of("__lr_mult__", "2"), f.nodes().get(2).hidden());
    assertEquals(
        List.of(new SymbolFile.Entry(0, 0), new SymbolFile.Entry(1, 0)), f.nodes().get(2).inputs());
    assertEquals(List.of(new SymbolFile.Entry(2, 0)), f.heads());
    assertEquals("fc", f.node(f.heads().get(0)).name());
  }

  /**
   * MXNet 0.8's C++ API writes operators of empty and repeated names, which MXNet loads (it finds
   * nodes by position); {@code namedApart} names each on its own and leaves variables alone.
   */
  @Test
  void operatorsOfEmptyAndRepeatedNamesLoadAndAreNamedApart() {
    SymbolFile f =
        SymbolFile.parse(
            """
            {"nodes": [
              {"op": "null", "name": "act", "inputs": []},
              {"op": "Activation", "name": "", "attrs": {"act_type": "relu"}, "inputs": [[0, 0]]},
              {"op": "Activation", "name": "act", "attrs": {"act_type": "tanh"}, "inputs": [[1, 0]]},
              {"op": "Activation", "name": "act", "attrs": {"act_type": "tanh"}, "inputs": [[2, 0]]}],
             "heads": [[3, 0]]}
            """);
    assertEquals(List.of("act", "", "act", "act"), names(f));
    SymbolFile apart = f.namedApart();
    assertEquals(List.of("act", "activation1", "act_1", "act_2"), names(apart));
    assertEquals(f.nodes().get(3).inputs(), apart.nodes().get(3).inputs());
    assertSame(apart, apart.namedApart());
  }

  private static List<String> names(SymbolFile f) {
    return f.nodes().stream().map(SymbolFile.Node::name).toList();
  }

  @Test
  void readsMxnet08sFormat() {
    SymbolFile f =
        SymbolFile.parse(
            """
            {"nodes": [
              {"op": "null", "param": {}, "name": "data", "inputs": [], "backward_source_id": -1},
              {"op": "Activation", "param": {"act_type": "relu"}, "name": "relu",
               "inputs": [[0, 0]], "backward_source_id": -1,
               "attr": {"ctx_group": "stage1", "weight_lr_mult": "2", "mirror_stage": "True"}}],
             "arg_nodes": [0], "heads": [[1, 0]]}
            """);
    assertEquals(800, f.version());
    assertEquals(Map.of("act_type", "relu"), f.nodes().get(1).attrs());
    assertEquals(
        Map.of("ctx_group", "stage1", "weight_lr_mult", "2", "mirror_stage", "True"),
        f.nodes().get(1).hidden());
    assertEquals(List.of(new SymbolFile.Entry(0, 0)), f.nodes().get(1).inputs());
    assertEquals(true, f.nodes().get(0).isVariable());
  }

  @Test
  void mergesParamAttrAndAttrsInTheFilesOrder() {
    SymbolFile f =
        SymbolFile.parse(
            """
            {"nodes": [{"op": "null", "name": "x", "inputs": []},
              {"op": "softmax", "param": {"axis": "0"}, "attr": {"axis": "1"}, "name": "s",
               "inputs": [[0, 0]]}], "heads": [[1, 0]]}
            """);
    assertEquals(Map.of("axis", "1"), f.nodes().get(1).attrs());
  }

  @Test
  void refusesWhatIsNoSymbolSayingWhy() {
    assertEquals("not JSON (", message("{").substring(0, 10));
    assertEquals("not a JSON object", message("[1, 2]"));
    assertEquals("the graph has no \"nodes\" array", message("{\"heads\": []}"));
    assertEquals(
        "node 0 (a) inputs: [3,0] names no node before it",
        message(
            "{\"nodes\": [{\"op\": \"relu\", \"name\": \"a\", \"inputs\": [[3, 0]]}], \"heads\": []}"));
    assertEquals(
        "it has no heads (outputs)",
        message(
            "{\"nodes\": [{\"op\": \"null\", \"name\": \"a\", \"inputs\": []}], \"heads\": []}"));
    assertEquals(
        "node 0 (a) inputs: expected [node, index] or [node, index, version], got [0]",
        message(
            "{\"nodes\": [{\"op\": \"relu\", \"name\": \"a\", \"inputs\": [[0]]}], \"heads\": []}"));
  }

  @Test
  void readsTheSubgraphsOfAFusedNode() {
    SymbolFile f =
        SymbolFile.parse(
            """
            {"nodes": [{"op": "null", "name": "x", "inputs": []},
              {"op": "_sg_mkldnn_conv", "name": "sg_0", "attrs": {"with_act": "true"},
               "inputs": [[0, 0, 0]], "subgraphs": [{"nodes": [
                 {"op": "null", "name": "sg_in", "inputs": []},
                 {"op": "Convolution", "name": "conv", "attrs": {"num_filter": "8"},
                  "inputs": [[0, 0, 0]]},
                 {"op": "Activation", "name": "relu", "attrs": {"act_type": "relu"},
                  "inputs": [[1, 0, 0]]}], "heads": [[2, 0, 0]]}]}],
             "heads": [[1, 0, 0]]}
            """);
    assertEquals(List.of(), f.nodes().get(0).subgraphs());
    SymbolFile fused = f.nodes().get(1).subgraphs().get(0);
    assertEquals(Map.of("num_filter", "8"), fused.node("conv").attrs());
    assertEquals("relu", fused.node(fused.heads().get(0)).name());
    assertEquals(
        "node 1 (sg_0): subgraph 0: it has no heads (outputs)",
        message(
            "{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []}, {\"op\":"
                + " \"f\", \"name\": \"sg_0\", \"inputs\": [[0, 0]], \"subgraphs\":"
                + " [{\"nodes\": [], \"heads\": []}]}], \"heads\": [[1, 0]]}"));
  }

  @Test
  void readsStrictJsonOnlyAsMxnetsLoaderDoes() {
    String symbol = "{\"nodes\": [{\"op\": \"null\", \"name\": \"a\", \"inputs\": []}], ";
    assertEquals(1, SymbolFile.parse(symbol + "\"heads\": [[0, 0]]}").nodes().size());
    assertEquals("not JSON (", message(symbol + "'heads': [[0, 0]]}").substring(0, 10));
    assertEquals("not JSON (", message(symbol + "\"heads\": [[0, 0]]} {}").substring(0, 10));
    assertEquals("not JSON (", message("[".repeat(100_000)).substring(0, 10));
  }

  private static String message(String json) {
    return assertThrows(IllegalArgumentException.class, () -> SymbolFile.parse(json)).getMessage();
  }
}
