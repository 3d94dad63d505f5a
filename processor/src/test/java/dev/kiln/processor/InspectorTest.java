package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.processor.read.DeclaredModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The processor's checks of a symbol file outside a compiler ({@link Inspector}, what {@code
 * kiln-sample inspect} and {@code import} run): the table, the interface, errors as the compiler
 * would give them, and an output of a node of several outputs.
 */
class InspectorTest {
  /** {@code data} [N, 6] split in three along axis 1, two of the parts read. */
  private static final String SPLIT =
      """
      {"nodes": [
        {"op": "null", "name": "data", "inputs": []},
        {"op": "SliceChannel", "name": "split", "attrs": {"num_outputs": "3", "axis": "1"},
         "inputs": [[0, 0, 0]]},
        {"op": "elemwise_mul", "name": "prod", "inputs": [[1, 0, 0], [1, 2, 0]]},
        {"op": "Activation", "name": "act", "attrs": {"act_type": "tanh"}, "inputs": [[2, 0, 0]]}],
       "heads": [[3, 0, 0]]}
      """;

  private static Inspector.Inspection inspect(List<String> outputs, int... shape) {
    return Inspector.inspect(
        "Split",
        "com.example",
        "split-symbol.json",
        SPLIT,
        List.of(new DeclaredModel.Input("data", shape)),
        outputs);
  }

  @Test
  void everyOutputReadOfANodeOfSeveralIsANodeNamedAsMxnetNamesIt() {
    Inspector.Inspection i = inspect(List.of(), -1, 6);
    assertEquals(List.of(), i.errors());
    assertTrue(i.table().contains("split_output0  SliceChannel(num_outputs=3, axis=1)"), i.table());
    assertTrue(i.table().contains("split_output2"), i.table());
    assertTrue(!i.table().contains("split_output1"), i.table());
    assertTrue(
        i.source().contains("@Imported(symbol = \"split-symbol.json\")\n  Sym act(Sym data);"),
        i.source());
  }

  @Test
  void anOutputOfANodeOfSeveralCanBeTheCut() {
    Inspector.Inspection i = inspect(List.of("split_output1"), -1, 6);
    assertEquals(List.of(), i.errors());
    assertTrue(i.table().contains("split_output1"), i.table());
    assertTrue(
        i.source()
            .contains(
                "@Imported(symbol = \"split-symbol.json\", output = \"split_output1\")\n"
                    + "  Sym split_output1(Sym data);"),
        i.source());
  }

  @Test
  void aSplitThatDoesNotDivideIsTheSliceRule() {
    Inspector.Inspection i = inspect(List.of(), -1, 7);
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .startsWith(
                "[kiln:BadSlice] Split.act() split SliceChannel(num_outputs=3, axis=1): "
                    + "cannot take indices of 3 equal parts of axis 1 of [BATCH, 7]"),
        i.errors().get(0));
    assertTrue(i.errors().get(0).endsWith("7 is not a multiple of 3"), i.errors().get(0));
  }

  /**
   * {@code data} swapped to time-major (or not, {@code swap} false) into a GRU whose initial state
   * is a variable (or, {@code ones}, computed by a {@code _ones} node), the file's head its output
   * {@code head}.
   */
  private static Inspector.Inspection rnn(boolean swap, boolean ones, int head, int... shape) {
    String state =
        ones
            ? "{\"op\": \"_ones\", \"name\": \"begin\", \"attrs\": {\"shape\": \"(1, 0, 3)\"},"
                + " \"inputs\": []}"
            : "{\"op\": \"null\", \"name\": \"gru_state\", \"inputs\": []}";
    String json =
        """
        {"nodes": [
          {"op": "null", "name": "data", "inputs": []},
          {"op": "SwapAxis", "name": "tnc", "attrs": {"dim1": "0", "dim2": "1"},
           "inputs": [[0, 0, 0]]},
          {"op": "null", "name": "gru_parameters", "inputs": []},
          %s,
          {"op": "RNN", "name": "gru", "attrs": {"mode": "gru", "state_size": "3",
           "num_layers": "1"}, "inputs": [[%d, 0, 0], [2, 0, 0], [3, 0, 0]]}],
         "heads": [[4, %d, 0]]}
        """
            .formatted(state, swap ? 1 : 0, head);
    return Inspector.inspect(
        "Seq",
        "com.example",
        "seq-symbol.json",
        json,
        List.of(new DeclaredModel.Input("data", shape)),
        List.of());
  }

  @Test
  void anRnnIsTimeMajorAsTheFileHasIt() {
    Inspector.Inspection i = rnn(true, false, 0, -1, 5, 4);
    assertEquals(List.of(), i.errors());
    assertTrue(i.table().contains("[5, BATCH, 4]"), i.table());
    // 3 gates · 3 units · (4 + 3) weights, 2 · 3 gates · 3 biases.
    assertTrue(i.table().contains("[5, BATCH, 3]      81"), i.table());
  }

  @Test
  void anRnnOverABatchFirstSequenceIsRefusedWithTheSwapToWrite() {
    Inspector.Inspection i = rnn(false, false, 0, -1, 5, 4);
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .contains(
                "MXNet's RNN needs a rank-3 time-major [steps, BATCH, features] (the features "
                    + "known) input, got [BATCH, 5, 4] from data (@Input(shape = {BATCH, 5, 4})); "
                    + "a file feeds it a batch-first sequence through SwapAxis(dim1=0, dim2=1)"),
        i.errors().get(0));
  }

  @Test
  void anInitialStateThatANodeComputesIsRefused() {
    Inspector.Inspection i = rnn(true, true, 0, -1, 5, 4);
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .contains(
                "the initial state of node gru is computed by node begin (_ones); Kiln starts a "
                    + "recurrent layer from zeros"),
        i.errors().get(0));
  }

  @Test
  void anRnnsFinalStateIsNotImported() {
    Inspector.Inspection i = rnn(true, false, 1, -1, 5, 4);
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .endsWith("output 1 of node gru (RNN) is read, but Kiln imports only its first output"),
        i.errors().get(0));
  }

  /**
   * MTCNN's shape: one trunk, two heads (a softmax over the classes and a box regression), the
   * second read past a node's first output; written as MXNet 0.8's C++ API writes a graph, with an
   * operator of empty name and two of one name.
   */
  private static final String HEADS =
      """
      {"nodes": [
        {"op": "null", "name": "data", "param": {}, "inputs": [], "backward_source_id": -1},
        {"op": "null", "name": "fc_weight", "param": {}, "inputs": [], "backward_source_id": -1},
        {"op": "null", "name": "fc_bias", "param": {}, "inputs": [], "backward_source_id": -1},
        {"op": "FullyConnected", "name": "", "param": {"num_hidden": "6"},
         "inputs": [[0, 0], [1, 0], [2, 0]], "backward_source_id": -1},
        {"op": "Activation", "name": "act", "param": {"act_type": "tanh"}, "inputs": [[3, 0]],
         "backward_source_id": -1},
        {"op": "SliceChannel", "name": "act", "param": {"num_outputs": "2", "axis": "1"},
         "inputs": [[4, 0]], "backward_source_id": -1},
        {"op": "softmax", "name": "prob", "param": {"axis": "-1"}, "inputs": [[5, 0]],
         "backward_source_id": -1}],
       "arg_nodes": [0, 1, 2],
       "heads": [[6, 0], [5, 1]]}
      """;

  @Test
  void aFileOfSeveralOutputsIsImportedWholeEachAnOutputAndNamesAreMadeDistinct() {
    Inspector.Inspection i =
        Inspector.inspect(
            "Heads",
            "com.example",
            "heads-symbol.json",
            HEADS,
            List.of(new DeclaredModel.Input("data", new int[] {-1, 4})),
            List.of());
    assertEquals(List.of(), i.errors());
    assertEquals(List.of(), i.warnings());
    assertTrue(i.table().contains("fullyconnected3 "), i.table());
    assertTrue(i.table().contains("act_1_output0 "), i.table());
    assertTrue(
        i.source()
            .contains(
                "  @Output\n  @Imported(symbol = \"heads-symbol.json\", output = \"prob\")\n"
                    + "  Sym prob(Sym data);"),
        i.source());
    assertTrue(
        i.source()
            .contains(
                "  @Output\n  @Imported(symbol = \"heads-symbol.json\", output = "
                    + "\"act_1_output1\")\n  Sym act_1_output1(Sym data);"),
        i.source());
    assertTrue(i.source().contains("import dev.kiln.annotations.Output;"), i.source());
  }

  @Test
  void anOutputNamedCutsAFileOfSeveralOutputs() {
    Inspector.Inspection i =
        Inspector.inspect(
            "Heads",
            "com.example",
            "heads-symbol.json",
            HEADS,
            List.of(new DeclaredModel.Input("data", new int[] {-1, 4})),
            List.of("prob"));
    assertEquals(List.of(), i.errors());
    assertTrue(!i.source().contains("@Output"), i.source());
    assertTrue(!i.table().contains("act_1_output1"), i.table());
  }
}
