package dev.kiln.runtime.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which convolutions {@link ChannelPadding} pads, what it does to their parameters, and that a
 * padded fused predictor computes what the unpadded unfused one does.
 */
class ChannelPaddingTest {
  private final List<Tensor> owned = new ArrayList<>();

  @AfterEach
  void free() {
    owned.forEach(Tensor::close);
  }

  /**
   * A LeNet of {@code f1} and {@code f2} filters on 1x14x14 images: conv 3x3 (no bias), batch norm,
   * {@code act1}, max pool 2; conv 3x3 with bias, batch norm, tanh, average pool 2; dense 10 (which
   * flattens [f2, 2, 2]), softmax. {@code extraHead}: the first ReLU is an output too.
   */
  private static String lenet(int f1, int f2, String act1, boolean extraHead) {
    return """
        {"nodes": [
          {"op": "null", "name": "data", "inputs": []},
          {"op": "null", "name": "c1_weight", "inputs": []},
          {"op": "Convolution", "name": "c1",
           "attrs": {"num_filter": "%d", "kernel": "(3,3)", "no_bias": "True"},
           "inputs": [[0, 0, 0], [1, 0, 0]]},
          {"op": "null", "name": "n1_gamma", "inputs": []},
          {"op": "null", "name": "n1_beta", "inputs": []},
          {"op": "null", "name": "n1_moving_mean", "inputs": []},
          {"op": "null", "name": "n1_moving_var", "inputs": []},
          {"op": "BatchNorm", "name": "n1", "attrs": {"eps": "0.001", "fix_gamma": "False"},
           "inputs": [[2, 0, 0], [3, 0, 0], [4, 0, 0], [5, 0, 1], [6, 0, 1]]},
          {"op": "%s", "name": "a1", "attrs": {"act_type": "%s"}, "inputs": [[7, 0, 0]]},
          {"op": "Pooling", "name": "p1", "attrs": {"pool_type": "max", "kernel": "(2,2)",
           "stride": "(2,2)"}, "inputs": [[8, 0, 0]]},
          {"op": "null", "name": "c2_weight", "inputs": []},
          {"op": "null", "name": "c2_bias", "inputs": []},
          {"op": "Convolution", "name": "c2", "attrs": {"num_filter": "%d", "kernel": "(3,3)"},
           "inputs": [[9, 0, 0], [10, 0, 0], [11, 0, 0]]},
          {"op": "null", "name": "n2_gamma", "inputs": []},
          {"op": "null", "name": "n2_beta", "inputs": []},
          {"op": "null", "name": "n2_moving_mean", "inputs": []},
          {"op": "null", "name": "n2_moving_var", "inputs": []},
          {"op": "BatchNorm", "name": "n2", "attrs": {"eps": "0.001", "fix_gamma": "False"},
           "inputs": [[12, 0, 0], [13, 0, 0], [14, 0, 0], [15, 0, 1], [16, 0, 1]]},
          {"op": "Activation", "name": "a2", "attrs": {"act_type": "tanh"}, "inputs": [[17, 0, 0]]},
          {"op": "Pooling", "name": "p2", "attrs": {"pool_type": "avg", "kernel": "(2,2)",
           "stride": "(2,2)"}, "inputs": [[18, 0, 0]]},
          {"op": "null", "name": "d_weight", "inputs": []},
          {"op": "null", "name": "d_bias", "inputs": []},
          {"op": "FullyConnected", "name": "d", "attrs": {"num_hidden": "10"},
           "inputs": [[19, 0, 0], [20, 0, 0], [21, 0, 0]]},
          {"op": "softmax", "name": "probs", "inputs": [[22, 0, 0]]}],
         "arg_nodes": [0, 1, 3, 4, 5, 6, 10, 11, 13, 14, 15, 16, 20, 21],
         "heads": [[23, 0, 0]%s]}
        """
        .formatted(
            f1,
            act1.equals("prelu") ? "LeakyReLU" : "Activation",
            act1,
            f2,
            extraHead ? ", [8, 0, 0]" : "");
  }

  /** A predictor of {@link #lenet}'s symbol {@code json} over {@code params}. */
  private static Predictor predictor(
      String json, Map<String, Tensor> params, InferenceOptions options) {
    List<Port> in = List.of(new Port("data", Shape.of(Shape.BATCH, 1, 14, 14)));
    return Predictor.create("lenet", json, in, List.of("probs"), params, Map.of(), options);
  }

  /** {@code n} random 1x14x14 images. */
  private static float[] images(Random r, int n) {
    float[] x = new float[n * 196];
    for (int i = 0; i < x.length; i++) {
      x[i] = r.nextFloat();
    }
    return x;
  }

  /** {@code actual}'s outputs on {@code x} within 1e-5 relative of {@code expected}'s. */
  private static void assertSameOutputs(
      Predictor expected, Predictor actual, int batch, float[] x, String what) {
    float[] b = expected.predict(batch, x)[0];
    float[] a = actual.predict(batch, x)[0];
    for (int i = 0; i < a.length; i++) {
      assertEquals(b[i], a[i], 1e-5 * Math.max(1, Math.abs(b[i])), what + ", output " + i);
    }
  }

  /** Random parameters for {@link #lenet} (batch norm variances positive). */
  private Map<String, Tensor> params(int f1, int f2, boolean prelu, long seed) {
    Random r = new Random(seed);
    Map<String, Tensor> p = new LinkedHashMap<>();
    p.put("c1_weight", random(r, 0, f1, 1, 3, 3));
    for (String n : List.of("n1", "n2")) {
      int f = n.equals("n1") ? f1 : f2;
      p.put(n + "_gamma", random(r, 0, f));
      p.put(n + "_beta", random(r, 0, f));
      p.put(n + "_moving_mean", random(r, 0, f));
      p.put(n + "_moving_var", random(r, 0.5f, f));
    }
    if (prelu) {
      p.put("a1_gamma", random(r, 0, f1));
    }
    p.put("c2_weight", random(r, 0, f2, f1, 3, 3));
    p.put("c2_bias", random(r, 0, f2));
    p.put("d_weight", random(r, 0, 10, f2 * 2 * 2));
    p.put("d_bias", random(r, 0, 10));
    return p;
  }

  private Tensor random(Random r, float floor, int... dims) {
    Tensor t = Tensor.zeros(Shape.of(dims), 0);
    owned.add(t);
    float[] v = new float[(int) t.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = floor > 0 ? floor + r.nextFloat() : (float) r.nextGaussian() * 0.5f;
    }
    t.copyFrom(v);
    return t;
  }

  @Test
  void gemmConvolutionsGrowToWholeBlocksAndTheirReadersGetZeroWeights() {
    Map<String, Tensor> p = params(20, 12, false, 1);
    ChannelPadding.Result r = ChannelPadding.apply(lenet(20, 12, "relu", false), p);
    try {
      assertEquals(
          List.of(new PaddedConvolution("c1", 20, 32), new PaddedConvolution("c2", 12, 16)),
          r.convolutions());
      JsonArray nodes = JsonParser.parseString(r.json()).getAsJsonObject().getAsJsonArray("nodes");
      assertEquals("32", attr(nodes, "c1", "num_filter"));
      assertEquals("16", attr(nodes, "c2", "num_filter"));
      assertEquals(Shape.of(32, 1, 3, 3), r.padded().get("c1_weight").shape());
      assertEquals(Shape.of(16, 32, 3, 3), r.padded().get("c2_weight").shape());
      assertEquals(Shape.of(16), r.padded().get("c2_bias").shape());
      assertEquals(Shape.of(10, 16 * 4), r.padded().get("d_weight").shape());
      float[] var = r.padded().get("n1_moving_var").toFloatArray();
      float[] gamma = r.padded().get("n1_gamma").toFloatArray();
      for (int c = 20; c < 32; c++) {
        assertEquals(1f, var[c], "an added channel's variance");
        assertEquals(0f, gamma[c], "an added channel's scale");
      }
      // The dense layer's columns are runs of 2x2 per channel: channel 11's run stays where it
      // was, channels 12..15 read zeros.
      float[] before = p.get("d_weight").toFloatArray();
      float[] after = r.padded().get("d_weight").toFloatArray();
      for (int unit = 0; unit < 10; unit++) {
        for (int k = 0; k < 48; k++) {
          assertEquals(before[unit * 48 + k], after[unit * 64 + k]);
        }
        for (int k = 48; k < 64; k++) {
          assertEquals(0f, after[unit * 64 + k]);
        }
      }
      assertTrue(!r.padded().containsKey("d_bias"), "the dense layer's outputs are not padded");
    } finally {
      r.padded().values().forEach(Tensor::close);
    }
  }

  @Test
  void convolutionsWhosePaddingCouldReachAnythingElseStayAsTheyAre() {
    Map<String, Tensor> p = params(20, 12, false, 2);
    assertEquals(
        List.of("c2"),
        ChannelPadding.padded(lenet(20, 12, "relu", true), p),
        "c1's ReLU is an output: its added channels would show");
    assertEquals(
        List.of("c2"),
        ChannelPadding.padded(lenet(20, 12, "prelu", false), params(20, 12, true, 2)),
        "a learned PReLU slope per channel is not padded");
    assertEquals(
        List.of("c1"),
        ChannelPadding.padded(lenet(20, 6, "relu", false), params(20, 6, false, 2)),
        "6 filters would become 16: more than twice the work");
    assertEquals(
        List.of(),
        ChannelPadding.padded(lenet(32, 48, "relu", false), params(32, 48, false, 2)),
        "blocked already");
  }

  @Test
  void aPaddedRunKeepsEveryValueInItsRunAndFillsTheRest() {
    // [2, 3 channels x 2] along axis 1 to 4 channels: each row keeps its 6 values, then 2 zeros.
    float[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    assertArrayEquals(
        new float[] {1, 2, 3, 4, 5, 6, 0, 0, 7, 8, 9, 10, 11, 12, 0, 0},
        ChannelPadding.pad(v, new int[] {2, 6}, 1, 3, 4, 2));
    // [3, 2, 2] along axis 0 to 4: a zero [2, 2] block after the three.
    assertArrayEquals(
        new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0},
        ChannelPadding.pad(v, new int[] {3, 2, 2}, 0, 3, 4, 1));
  }

  @Test
  void thePaddedFusedPredictorComputesWhatTheUnfusedOneDoes() {
    for (long seed = 3; seed < 6; seed++) {
      Map<String, Tensor> p = params(20, 12, false, seed);
      String json = lenet(20, 12, "relu", false);
      try (Predictor fused = predictor(json, p, InferenceOptions.DEFAULT);
          Predictor plain = predictor(json, p, InferenceOptions.unfused())) {
        assertTrue(fused.isFused(), fused.fusionRefusal());
        assertEquals("[c1: 20 filters run as 32, c2: 12 filters run as 16]", fused.padding() + "");
        assertEquals(List.of(), plain.padding(), "unfused, nothing is padded");
        assertTrue(
            fused.symbolJson().matches("(?s).*\"num_filter\"\\s*:\\s*\"32\".*"),
            "the executors run the padded convolution");
        Random r = new Random(seed);
        for (int batch : new int[] {1, 7, 64}) {
          assertSameOutputs(plain, fused, batch, images(r, batch), "seed " + seed);
        }
      }
    }
  }

  /**
   * The two rewrites together: a convolution of 6 filters is not padded (16 would be more than
   * twice the work), so its ReLU still moves after its max pooling ({@link ReluAfterPool}) and it
   * fuses with its batch norm alone; the 12-filter one is padded to 16. The outputs are the unfused
   * ones.
   */
  @Test
  void aConvolutionLeftUnpaddedStillHasItsReluMovedAfterItsPooling() {
    Map<String, Tensor> p = params(6, 12, false, 7);
    String json = lenet(6, 12, "relu", false);
    try (Predictor fused = predictor(json, p, InferenceOptions.DEFAULT);
        Predictor plain = predictor(json, p, InferenceOptions.unfused())) {
      assertEquals(List.of(new PaddedConvolution("c2", 12, 16)), fused.padding());
      assertTrue(
          fused.fusion().stream().anyMatch(f -> f.nodes().equals(List.of("c1", "n1"))),
          fused.fusion().toString());
      assertSameOutputs(plain, fused, 16, images(new Random(7), 16), "batch 16");
    }
  }

  /**
   * What a padded predictor saves is the model as declared: 20 filters, unpadded arrays; loaded
   * back (and padded again when fused) it computes what it computed before.
   */
  @Test
  void aPaddedPredictorSavesTheDeclaredShapes(@TempDir Path dir) throws Exception {
    Map<String, Tensor> p = params(20, 12, false, 9);
    float[] x = images(new Random(9), 3);
    Path prefix = dir.resolve("padded");
    float[] before;
    try (Predictor fused = predictor(lenet(20, 12, "relu", false), p, InferenceOptions.DEFAULT)) {
      assertEquals(2, fused.padding().size());
      before = fused.predict(3, x)[0];
      fused.save(prefix);
    }
    String saved = Files.readString(dir.resolve("padded-symbol.json"));
    assertEquals(
        "20",
        attr(
            JsonParser.parseString(saved).getAsJsonObject().getAsJsonArray("nodes"),
            "c1",
            "num_filter"));
    try (Predictor loaded = Predictor.load(prefix, InferenceOptions.DEFAULT)) {
      assertEquals(2, loaded.padding().size());
      assertArrayEquals(before, loaded.predict(3, x)[0]);
    }
  }

  /** Attribute {@code key} of the node named {@code name}. */
  private static String attr(JsonArray nodes, String name, String key) {
    for (JsonElement e : nodes) {
      JsonObject n = e.getAsJsonObject();
      JsonObject attrs = n.has("attrs") ? n.getAsJsonObject("attrs") : n.getAsJsonObject("attr");
      if (n.get("name").getAsString().equals(name) && attrs != null && attrs.has(key)) {
        return attrs.get(key).getAsString();
      }
    }
    return null;
  }
}
