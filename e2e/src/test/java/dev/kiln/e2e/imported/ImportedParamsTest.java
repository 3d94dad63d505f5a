package dev.kiln.e2e.imported;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.io.MxnetFiles;
import dev.kiln.runtime.io.NamedArray;
import dev.kiln.runtime.io.ParamsFile;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * An imported model's weights come from the {@code .params} published with its symbol, saved by
 * MXNet itself ({@code MXNDArraySave}); what Kiln saves loads into MXNet and DJL with the original
 * symbol file and computes the same.
 */
class ImportedParamsTest {
  @TempDir Path dir;

  /** One array of a published file: its key, shape and values. */
  private record Array(String key, dev.kiln.runtime.graph.Shape shape, float[] values) {}

  /**
   * Every parameter and auxiliary state of {@code model}, at random, keyed as MXNet's Module API
   * does.
   */
  private static List<Array> published(KilnModel model, boolean prefixed) {
    Random r = new Random(17);
    List<Array> out = new ArrayList<>();
    for (Parameter p : model.params().parameters()) {
      out.add(new Array((prefixed ? "arg:" : "") + p.name(), p.shape(), random(r, p)));
    }
    for (Parameter p : model.params().auxiliaryStates()) {
      out.add(new Array((prefixed ? "aux:" : "") + p.name(), p.shape(), random(r, p)));
    }
    return out;
  }

  private static float[] random(Random r, Parameter p) {
    float[] v = new float[p.get().length];
    for (int i = 0; i < v.length; i++) {
      v[i] = p.name().endsWith("_var") ? 0.5f + r.nextFloat() : (float) (0.3 * r.nextGaussian());
    }
    return v;
  }

  private Path save(String name, List<Array> arrays) {
    Path file = dir.resolve(name);
    MxnetFiles.save(
        file,
        arrays.stream().map(Array::key).toList(),
        arrays.stream().map(Array::shape).toList(),
        arrays.stream().map(Array::values).toList());
    return file;
  }

  private static Map<String, float[]> byName(List<Array> arrays) {
    Map<String, float[]> out = new LinkedHashMap<>();
    arrays.forEach(a -> out.put(a.key().replaceFirst("^(arg|aux):", ""), a.values()));
    return out;
  }

  @Test
  void theModuleApisParamsLoadAndTheModelComputesWhatMxnetDoes() throws IOException {
    try (LegacyNetModel model = LegacyNetModel.create()) {
      List<Array> arrays = published(model, true);
      Path file = save("legacy-0000.params", arrays);
      assertEquals(List.of(), model.loadImported(file));
      assertArrayEquals(byName(arrays).get("conv_weight"), model.params().convWeight().get());
      assertArrayEquals(byName(arrays).get("bn_moving_var"), model.params().bnMovingVar().get());
      double diff =
          ImportAgreementTest.difference(model, "legacy-symbol.json", new int[] {2, 3, 8, 8});
      assertTrue(diff <= 1e-5, "largest difference from MXNet's executor: " + diff);
    }
  }

  /** Gluon's names stay, and name the typed accessors; its export's keys load. */
  @Test
  void gluonsNamesAreTheParametersNames() {
    try (GluonNetModel model = GluonNetModel.create()) {
      assertEquals(
          List.of(
              "hybridsequential0_conv0_weight",
              "hybridsequential0_conv0_bias",
              "hybridsequential0_batchnorm0_gamma",
              "hybridsequential0_batchnorm0_beta",
              "hybridsequential0_dense0_weight",
              "hybridsequential0_dense0_bias"),
          model.params().parameters().stream().map(Parameter::name).toList());
      List<Array> arrays = published(model, true);
      model.loadImported(save("gluon-0000.params", arrays));
      assertArrayEquals(
          byName(arrays).get("hybridsequential0_batchnorm0_running_var"),
          model.params().hybridsequential0Batchnorm0RunningVar().get());
      assertArrayEquals(
          byName(arrays).get("hybridsequential0_conv0_weight"),
          model.params().hybridsequential0Conv0Weight().get());
    }
  }

  /** A Kiln checkpoint of FashionMlp loads into its own export, imported, and computes the same. */
  @Test
  void kilnsOwnCheckpointLoadsIntoItsImportedExport() throws Exception {
    try (dev.kiln.sample.models.FashionMlpModel mlp =
            dev.kiln.sample.models.FashionMlpModel.create(Init.xavier(), 9);
        KilnMlpNetModel imported = KilnMlpNetModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      mlp.save(dir.resolve("mlp"));
      assertEquals(List.of(), imported.loadImported(dir.resolve("mlp-0000.params")));
      NDArray x = nd.randomUniform(0, 1, new ai.djl.ndarray.types.Shape(5, 784));
      assertArrayEquals(mlp.forward(x).toFloatArray(), imported.forward(x).toFloatArray(), 1e-6f);
    }
  }

  /**
   * A Gluon export end to end: its names, its weights under Gluon's plain keys, as {@code
   * ParameterDict.save} writes them whole ({@code hybridsequential0_conv0_weight}) and without the
   * block's prefix ({@code conv0_weight}, {@code Block.save_params}), load, and the model computes
   * what MXNet's executor computes from the same file and arrays.
   */
  @Test
  void aGluonExportWithGluonsPlainKeysComputesWhatMxnetDoes() throws IOException {
    for (boolean stripped : new boolean[] {false, true}) {
      try (GluonNetModel model = GluonNetModel.create()) {
        List<Array> arrays = published(model, false);
        List<Array> keyed =
            arrays.stream()
                .map(
                    a ->
                        new Array(
                            stripped ? a.key().replaceFirst("^hybridsequential0_", "") : a.key(),
                            a.shape(),
                            a.values()))
                .toList();
        assertEquals(List.of(), model.loadImported(save("gluon-" + stripped + ".params", keyed)));
        assertArrayEquals(
            byName(arrays).get("hybridsequential0_batchnorm0_running_mean"),
            model.params().hybridsequential0Batchnorm0RunningMean().get());
        double diff =
            ImportAgreementTest.difference(model, "gluon-symbol.json", new int[] {2, 2, 6, 6});
        assertTrue(diff <= 1e-5, "largest difference from MXNet's executor: " + diff);
      }
    }
  }

  @Test
  void gluonsPlainKeysLoad() {
    try (LegacyNetModel model = LegacyNetModel.create()) {
      List<Array> arrays = published(model, false);
      model.loadImported(save("gluon.params", arrays));
      assertArrayEquals(byName(arrays).get("fc_bias"), model.params().fcBias().get());
      assertArrayEquals(byName(arrays).get("bn_moving_mean"), model.params().bnMovingMean().get());
    }
  }

  @Test
  void aMissingArrayIsRefusedByNameAndNothingChanges() {
    try (LegacyNetModel model = LegacyNetModel.create()) {
      float[] before = model.params().convWeight().get();
      List<Array> arrays = published(model, true);
      arrays.removeIf(a -> a.key().equals("arg:fc_bias"));
      String message = refusal(model, save("missing.params", arrays));
      assertTrue(
          message.contains("has no array for fc_bias, which the imported nodes need"), message);
      assertArrayEquals(before, model.params().convWeight().get());
    }
  }

  @Test
  void anExtraArrayIsRefusedByName() {
    try (LegacyNetModel model = LegacyNetModel.create()) {
      List<Array> arrays = published(model, true);
      arrays.add(new Array("arg:fc2_weight", dev.kiln.runtime.graph.Shape.of(2, 2), new float[4]));
      String message = refusal(model, save("extra.params", arrays));
      assertTrue(
          message.contains(
              "array 9 'arg:fc2_weight' is neither a parameter of the model's imported nodes nor "
                  + "of the nodes its imports cut away"),
          message);
    }
  }

  @Test
  void aMisshapenArrayIsRefusedByName() {
    try (LegacyNetModel model = LegacyNetModel.create()) {
      List<Array> arrays = published(model, true);
      arrays.replaceAll(
          a ->
              a.key().equals("arg:fc_weight")
                  ? new Array(a.key(), dev.kiln.runtime.graph.Shape.of(10, 4), new float[40])
                  : a);
      String message = refusal(model, save("misshapen.params", arrays));
      assertTrue(
          message.contains("'arg:fc_weight' has shape [10, 4], the model needs [10, 8]"), message);
    }
  }

  private static String refusal(KilnModel model, Path file) {
    UncheckedIOException e =
        assertThrows(UncheckedIOException.class, () -> ((LegacyNetModel) model).loadImported(file));
    return e.getMessage();
  }

  /**
   * A checkpoint Kiln saves holds the file's names: MXNet's executor and DJL, given the original
   * symbol file and that checkpoint's parameters, compute what the Kiln model computes.
   */
  @Test
  void aSavedCheckpointLoadsInMxnetAndDjlWithTheOriginalSymbol() throws Exception {
    try (ImportedLeNetModel model = ImportedLeNetModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      model.save(dir.resolve("kiln"));
      Files.copy(SymbolFiles.DIR.resolve("lenet-symbol.json"), dir.resolve("original-symbol.json"));
      Files.copy(dir.resolve("kiln-0000.params"), dir.resolve("original-0000.params"));
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(4, 1, 28, 28));
      float[] ours = model.forward(x).toFloatArray();

      Map<String, float[]> saved = new LinkedHashMap<>();
      for (NamedArray a : ParamsFile.read(dir.resolve("original-0000.params"))) {
        saved.put(a.name(), a.data());
      }
      String json = Files.readString(dir.resolve("original-symbol.json"), StandardCharsets.UTF_8);
      float[] mxnet =
          MxnetReference.forward(json, saved, "data", new int[] {4, 1, 28, 28}, x.toFloatArray());
      assertArrayEquals(ours, mxnet, 1e-5f);

      try (Model djl = Model.newInstance("original", "MXNet")) {
        djl.load(dir, "original");
        try (Predictor<NDList, NDList> predictor = djl.newPredictor(new NoopTranslator())) {
          NDList out =
              predictor.predict(new NDList(x, nd.zeros(new ai.djl.ndarray.types.Shape(4))));
          assertArrayEquals(ours, out.head().toFloatArray(), 1e-5f);
        }
      }
    }
  }
}
