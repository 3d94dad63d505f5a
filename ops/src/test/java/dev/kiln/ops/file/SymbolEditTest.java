package dev.kiln.ops.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Edits of a symbol's JSON: the edited parts change, the rest is written as it was read. */
class SymbolEditTest {
  private static final String NET =
      """
      {"nodes": [
        {"op": "null", "name": "x", "inputs": []},
        {"op": "Activation", "name": "a", "attrs": {"act_type": "relu"}, "inputs": [[0, 0, 0]]},
        {"op": "Pooling", "name": "p", "attr": {"pool_type": "max"}, "inputs": [[1, 0, 0]]}],
       "heads": [[2, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}
      """;

  @Test
  void setsAttributesWhereTheNodeKeepsThem() {
    SymbolEdit edit = SymbolEdit.of(NET);
    edit.setAttr(0, "__shape__", "(1,2)");
    edit.setAttr(1, "act_type", "tanh");
    edit.setAttr(2, "pool_type", "avg");
    SymbolFile f = SymbolFile.parse(edit.toJson());
    assertEquals(Map.of("__shape__", "(1,2)"), f.nodes().get(0).hidden());
    assertEquals(Map.of("act_type", "tanh"), f.nodes().get(1).attrs());
    assertEquals(Map.of("pool_type", "avg"), f.nodes().get(2).attrs());
    assertEquals(10901, f.version());
    assertEquals(
        Map.of("act_type", "relu"), edit.file().nodes().get(1).attrs(), "file() is as read");
  }

  @Test
  void rewiresAndSwapsNodes() {
    SymbolEdit edit = SymbolEdit.of(NET);
    edit.setInputs(2, List.of(new SymbolFile.Entry(0, 0)));
    edit.setInputs(1, List.of(new SymbolFile.Entry(1, 0)));
    edit.swap(1, 2);
    SymbolFile f = SymbolFile.parse(edit.toJson());
    assertEquals(List.of("x", "p", "a"), f.nodes().stream().map(SymbolFile.Node::name).toList());
    assertEquals(List.of(new SymbolFile.Entry(0, 0)), f.nodes().get(1).inputs());
    assertEquals(List.of(new SymbolFile.Entry(1, 0)), f.nodes().get(2).inputs());
  }

  @Test
  void addsNodesAfterTheirPlaceAndRenumbersEveryEntry() {
    String withArgs =
        NET.replace("\"heads\"", "\"arg_nodes\": [0], \"node_row_ptr\": [0, 1, 2, 3], \"heads\"");
    SymbolEdit edit = SymbolEdit.of(withArgs);
    int zeros = edit.add(0, "_zeros", "z", Map.of("shape", "(2,)"), List.of());
    int concat =
        edit.add(
            zeros,
            "Concat",
            "c",
            Map.of("dim", "0", "num_args", "2"),
            List.of(new SymbolFile.Entry(0, 0), new SymbolFile.Entry(zeros, 0)));
    assertEquals(List.of(3, 4), List.of(zeros, concat));
    edit.setInputs(1, List.of(new SymbolFile.Entry(concat, 0)));
    String json = edit.toJson();
    SymbolFile f = SymbolFile.parse(json);
    assertEquals(
        List.of("x", "z", "c", "a", "p"), f.nodes().stream().map(SymbolFile.Node::name).toList());
    assertEquals(
        List.of(new SymbolFile.Entry(0, 0), new SymbolFile.Entry(1, 0)), f.nodes().get(2).inputs());
    assertEquals(List.of(new SymbolFile.Entry(2, 0)), f.nodes().get(3).inputs());
    assertEquals(List.of(new SymbolFile.Entry(3, 0)), f.nodes().get(4).inputs());
    assertEquals(List.of(new SymbolFile.Entry(4, 0)), f.heads());
    assertEquals(Map.of("dim", "0", "num_args", "2"), f.nodes().get(2).attrs());
    assertEquals(false, json.contains("node_row_ptr"), json);
    assertEquals(true, json.contains("\"arg_nodes\":[0]"), json);
  }

  @Test
  void writesAnUneditedSymbolAsItWasRead() {
    assertEquals(
        NET.replaceAll("\\s+", "").replace("\"", ""),
        SymbolEdit.of(NET).toJson().replace("\"", ""));
  }
}
