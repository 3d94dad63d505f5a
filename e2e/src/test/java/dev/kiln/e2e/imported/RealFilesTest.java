package dev.kiln.e2e.imported;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import dev.kiln.processor.Inspector;
import dev.kiln.processor.read.DeclaredModel;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.io.LegacyParams;
import dev.kiln.runtime.io.MxnetFiles;
import dev.kiln.runtime.io.NamedArray;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What real MXNet files need and MXNet loads, written by MXNet's own C API ({@link SymbolFiles}):
 * an unrolled LSTM whose steps share their weights, a file of three outputs with the operators of
 * MTCNN-style files ({@code _*_scalar}, {@code Crop}, {@code Cast}, {@code SoftmaxActivation}), a
 * {@code Concat} along the batch axis, and weights in MXNet's pre-1.0 {@code .params} format.
 */
class RealFilesTest {
  private static final double TOLERANCE = 1e-5;

  @TempDir Path dir;

  private static String file(String name) throws IOException {
    return Files.readString(SymbolFiles.DIR.resolve(name), StandardCharsets.UTF_8);
  }

  /**
   * Every step of the unrolled LSTM reads the same four variables: the model has each once, as
   * MXNet's executor has each argument once.
   */
  @Test
  void tiedWeightsAreOneParameterEach() throws IOException {
    try (TiedLstmNetModel model = TiedLstmNetModel.create();
        SymbolHandle mxnet = SymbolHandle.fromJson(file("tied-lstm-symbol.json"))) {
      List<String> args = new ArrayList<>(mxnet.arguments());
      args.remove("data");
      assertEquals(
          List.of("lstm_i2h_weight", "lstm_i2h_bias", "lstm_h2h_weight", "lstm_h2h_bias"), args);
      assertEquals(args, model.params().parameters().stream().map(Parameter::name).toList());
      int u = SymbolFiles.TIED_UNITS;
      assertEquals(
          4 * u * 4 + 4 * u + 4 * u * u + 4 * u,
          model.params().parameters().stream().mapToInt(p -> p.get().length).sum());
    }
  }

  /**
   * MXNet's pre-1.0 {@code .params} (the rank-first layout), written by hand from MXNet's loader
   * and read by MXNet's own {@code MXNDArrayLoad} alike, loads into the imported LSTM, which then
   * computes what MXNet's executor computes from the same file and arrays.
   */
  @Test
  void aPre10ParamsFileLoadsAndTheTiedLstmAgreesWithMxnet() throws IOException {
    try (TiedLstmNetModel model = TiedLstmNetModel.create()) {
      Random r = new Random(21);
      List<NamedArray> arrays = new ArrayList<>();
      for (Parameter p : model.params().parameters()) {
        float[] v = new float[p.get().length];
        for (int i = 0; i < v.length; i++) {
          v[i] = (float) (0.4 * r.nextGaussian());
        }
        arrays.add(new NamedArray("arg:" + p.name(), p.shape(), v));
      }
      Path params = dir.resolve("ocr-0000.params");
      LegacyParams.write(params, arrays, LegacyParams.Layout.RANK_FIRST);
      List<NamedArray> mxnet = MxnetFiles.load(params);
      for (int i = 0; i < arrays.size(); i++) {
        assertArrayEquals(arrays.get(i).data(), mxnet.get(i).data());
      }
      assertEquals(List.of(), model.loadImported(params));
      assertArrayEquals(arrays.get(0).data(), model.params().lstmI2hWeight().get());
      double diff =
          ImportAgreementTest.difference(
              model, "tied-lstm-symbol.json", new int[] {4, SymbolFiles.TIED_STEPS, 4});
      assertTrue(diff <= TOLERANCE, "largest difference from MXNet's executor: " + diff);
    }
  }

  /** Each of the file's three outputs equals MXNet's at that output, from the same arrays. */
  @Test
  void everyOutputOfAFileOfSeveralAgreesWithMxnet() throws IOException {
    String json = file("heads-symbol.json");
    int[] shape = {2, 3, 12, 12};
    float[] x = new float[2 * 3 * 12 * 12];
    Random r = new Random(8);
    for (int i = 0; i < x.length; i++) {
      x[i] = 255 * r.nextFloat();
    }
    try (HeadsNetModel model = HeadsNetModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      ImportAgreementTest.randomize(model, new Random(4));
      Map<String, float[]> arrays = new LinkedHashMap<>();
      for (Parameter p : model.params().parameters()) {
        arrays.put(p.name(), p.get());
      }
      NDList outs =
          model.forward(new NDList(nd.create(x, new ai.djl.ndarray.types.Shape(2, 3, 12, 12))));
      assertEquals(3, outs.size());
      String[] heads = {"prob1_output", "conv4_2_output", "misc_output"};
      for (int h = 0; h < heads.length; h++) {
        float[] theirs = MxnetReference.forward(json, heads[h], arrays, "data", shape, x);
        float[] ours = outs.get(h).toFloatArray();
        assertEquals(theirs.length, ours.length, heads[h]);
        for (int i = 0; i < ours.length; i++) {
          assertEquals(theirs[i], ours[i], TOLERANCE, heads[h] + " at " + i);
        }
      }
    }
  }

  /**
   * {@code kiln import} writes the file whole: one {@code @Output} import per output, the interface
   * above, with no warning.
   */
  @Test
  void importWritesEveryOutputOfTheFile() throws IOException {
    Inspector.Inspection i =
        Inspector.inspect(
            "HeadsNet",
            "dev.kiln.e2e.imported",
            "heads-symbol.json",
            file("heads-symbol.json"),
            List.of(new DeclaredModel.Input("data", new int[] {-1, 3, 12, 12})),
            List.of());
    assertEquals(List.of(), i.errors());
    assertEquals(List.of(), i.warnings());
    for (String head : List.of("prob1", "conv4_2", "misc")) {
      assertTrue(
          i.source()
              .contains(
                  "  @Output\n  @Imported(symbol = \"heads-symbol.json\", output = \""
                      + head
                      + "\")\n  Sym "
                      + head
                      + "(Sym data);"),
          i.source());
    }
  }

  /**
   * MXNet's own shape inference makes a batch-axis {@code Concat} of two batches of 3 a batch of 6:
   * no {@code [BATCH, 8]} shape says that, and Kiln refuses the file at compile time, naming the
   * node.
   */
  @Test
  void aConcatAlongTheBatchAxisIsRefusedNamingTheNode() throws IOException {
    String json = file("batch-concat-symbol.json");
    try (SymbolHandle s = SymbolHandle.fromJson(json)) {
      assertArrayEquals(
          new int[] {6, 8}, s.inferShapes(Map.of("data", new int[] {3, 8})).outputs()[0]);
    }
    Inspector.Inspection i =
        Inspector.inspect(
            "Joined",
            "com.example",
            "batch-concat-symbol.json",
            json,
            List.of(new DeclaredModel.Input("data", new int[] {-1, 8})),
            List.of());
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors().get(0).startsWith("[kiln:ConcatBatch] Joined.both() both: @Concat(axis = 0)"),
        i.errors().get(0));
  }

  /**
   * The operators MXNet saved with an empty name and with one name twice each get a name of their
   * own in the model ({@code fullyconnected3}, {@code act_1}); the variables keep theirs.
   */
  @Test
  void operatorsOfEmptyAndRepeatedNamesGetNamesOfTheirOwn() {
    try (UnnamedNetModel model = UnnamedNetModel.create()) {
      String table = model.summary();
      assertTrue(table.contains("fullyconnected3"), table);
      assertTrue(table.contains("act_1"), table);
      assertEquals(
          List.of("fc0_weight", "fc0_bias", "fc1_weight", "fc1_bias"),
          model.params().parameters().stream().map(Parameter::name).toList());
    }
  }

  /**
   * One variable read by two dense layers at two shapes: MXNet's own shape inference refuses the
   * graph, and Kiln refuses it at compile time, naming the variable and both readers.
   */
  @Test
  void aVariableReadAtTwoShapesIsRefusedAsMxnetRefusesIt() {
    String json;
    try (SymbolFiles.Composer c = new SymbolFiles.Composer()) {
      SymbolHandle w = c.variable("shared_weight");
      String[] fc = {"data", "weight"};
      SymbolHandle x = c.variable("data");
      x =
          c.op(
              "FullyConnected",
              "wide",
              fc,
              new SymbolHandle[] {x, w},
              "num_hidden",
              "6",
              "no_bias",
              "True");
      x =
          c.op(
              "FullyConnected",
              "narrow",
              fc,
              new SymbolHandle[] {x, w},
              "num_hidden",
              "4",
              "no_bias",
              "True");
      json = x.toJson();
    }
    try (SymbolHandle s = SymbolHandle.fromJson(json)) {
      RuntimeException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              RuntimeException.class, () -> s.inferShapes(Map.of("data", new int[] {2, 8})));
      assertTrue(refused.getMessage().contains("narrow"), refused.getMessage());
    }
    Inspector.Inspection i =
        Inspector.inspect(
            "Tied",
            "com.example",
            "tied-symbol.json",
            json,
            List.of(new DeclaredModel.Input("data", new int[] {-1, 8})),
            List.of());
    assertEquals(
        List.of(
            "[kiln:ImportSharedShape] Tied.narrow() narrow: variable shared_weight is read by node "
                + "wide as [6, 8] and by node narrow as [4, 6]; one variable has one shape (MXNet "
                + "refuses this file too): give each reader a variable of its own"),
        i.errors());
  }

  /**
   * A Gluon export's variables declare their shapes ({@code __shape__}): fed an input of 1 channel
   * where the weight declares 3, MXNet's own shape inference refuses the graph, and Kiln refuses it
   * when the model compiles, naming the variable, both shapes and the node.
   */
  @Test
  void theShapesAGluonExportDeclaresAreCheckedAsMxnetChecksThem() {
    String json =
        """
        {"nodes": [
          {"op": "null", "name": "data", "inputs": []},
          {"op": "null", "name": "conv0_weight",
           "attrs": {"__dtype__": "0", "__lr_mult__": "1.0", "__shape__": "(4, 3, 3, 3)",
                     "__storage_type__": "0", "__wd_mult__": "1.0"}, "inputs": []},
          {"op": "null", "name": "conv0_bias",
           "attrs": {"__dtype__": "0", "__lr_mult__": "1.0", "__shape__": "(4,)",
                     "__storage_type__": "0", "__wd_mult__": "1.0"}, "inputs": []},
          {"op": "Convolution", "name": "conv0_fwd", "attrs": {"kernel": "(3, 3)", "num_filter": "4"},
           "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}],
         "arg_nodes": [0, 1, 2], "heads": [[3, 0, 0]],
         "attrs": {"mxnet_version": ["int", 10901]}}
        """;
    try (SymbolHandle s = SymbolHandle.fromJson(json)) {
      assertArrayEquals(
          new int[] {2, 4, 6, 6},
          s.inferShapes(Map.of("data", new int[] {2, 3, 8, 8})).outputs()[0]);
      org.junit.jupiter.api.Assertions.assertThrows(
          RuntimeException.class, () -> s.inferShapes(Map.of("data", new int[] {2, 1, 8, 8})));
    }
    Inspector.Inspection i =
        Inspector.inspect(
            "Gluon",
            "com.example",
            "gluon-symbol.json",
            json,
            List.of(new DeclaredModel.Input("data", new int[] {-1, 1, 8, 8})),
            List.of());
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .startsWith(
                "[kiln:ImportShapeHint] Gluon.conv0_fwd() conv0_fwd: variable conv0_weight "
                    + "declares shape [4, 3, 3, 3] in the file (__shape__), but node conv0_fwd "
                    + "reads it as [4, 1, 3, 3]"),
        i.errors().get(0));
  }
}
