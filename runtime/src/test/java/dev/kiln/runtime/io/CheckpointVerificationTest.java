package dev.kiln.runtime.io;

import static dev.kiln.runtime.io.CheckpointTest.assertSameValues;
import static dev.kiln.runtime.io.CheckpointTest.model;
import static dev.kiln.runtime.io.CheckpointTest.rejected;
import static dev.kiln.runtime.io.CheckpointTest.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ActivationOp;
import dev.kiln.ops.ConcatOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint is verified when it is loaded: its symbol must be the model's architecture, and its
 * parameters must have the SHA-256 their integrity file records.
 */
class CheckpointVerificationTest {
  @TempDir Path dir;

  /** 6 -> hidden (8, no activation) -> act (an Activation node) -> logits (3). */
  static Graph withActivation(Act act) {
    GraphBuilder b = new GraphBuilder("Mlp");
    Sym x = b.input(new NodeSource("x", "Mlp.x()", "@Input"), Shape.of(-1, 6));
    Sym h =
        b.node(new NodeSource("hidden", "Mlp.hidden()", "@Dense(units = 8)"), DenseOp.units(8), x);
    Sym a = b.node(new NodeSource("act", "Mlp.act()", "@Activation"), ActivationOp.of(act), h);
    Sym y =
        b.node(new NodeSource("logits", "Mlp.logits()", "@Dense(units = 3)"), DenseOp.units(3), a);
    return b.build(List.of(y));
  }

  /** Two inputs of the same shape concatenated in the order given, then a dense layer. */
  static Graph concat(boolean xFirst) {
    GraphBuilder b = new GraphBuilder("Two");
    Sym x = b.input(new NodeSource("x", "Two.x()", "@Input"), Shape.of(-1, 3));
    Sym z = b.input(new NodeSource("z", "Two.z()", "@Input"), Shape.of(-1, 3));
    Sym both =
        b.node(
            new NodeSource("both", "Two.both()", "@Concat"),
            ConcatOp.axis(1),
            xFirst ? x : z,
            xFirst ? z : x);
    Sym y = b.node(new NodeSource("y", "Two.y()", "@Dense(units = 2)"), DenseOp.units(2), both);
    return b.build(List.of(y));
  }

  /** Loads {@code prefix} into {@code m}, which must refuse it naming {@code file}. */
  private static String refusedBy(ModelRuntime m, Path prefix, Path file) {
    Map<String, float[]> before = values(m);
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> m.loadParams(prefix));
    CheckpointException c = (CheckpointException) e.getCause();
    assertEquals(file, c.file());
    assertSameValues(before, values(m));
    return c.getMessage();
  }

  @Test
  void anotherArchitectureWithTheSameNamesAndShapesIsRefusedNamingTheAttribute() throws Exception {
    Path prefix = dir.resolve("act");
    try (ModelRuntime relu =
            new ModelRuntime("ReluModel", withActivation(Act.RELU), Init.xavier(), 1);
        ModelRuntime tanh =
            new ModelRuntime("TanhModel", withActivation(Act.TANH), Init.xavier(), 2)) {
      relu.save(prefix);
      assertEquals(
          Checkpoint.symbolFile(prefix)
              + ": not this model's architecture: node 'act': "
              + "operator Activation attribute act_type is relu in the file, the model has tanh",
          refusedBy(tanh, prefix, Checkpoint.symbolFile(prefix)));
      tanh.loadParams(prefix, true);
      assertSameValues(values(relu), values(tanh));
    }
  }

  @Test
  void rewiredInputsAreRefusedNamingTheInput() throws Exception {
    Path prefix = dir.resolve("two");
    try (ModelRuntime xz = new ModelRuntime("XzModel", concat(true), Init.xavier(), 1);
        ModelRuntime zx = new ModelRuntime("ZxModel", concat(false), Init.xavier(), 2)) {
      xz.save(prefix);
      assertEquals(
          Checkpoint.symbolFile(prefix)
              + ": not this model's architecture: node "
              + "'both': input 0 is 'x' in the file, the model has 'z'",
          refusedBy(zx, prefix, Checkpoint.symbolFile(prefix)));
    }
  }

  /** Saves model(8, 1) to {@code prefix}, edits its symbol JSON, loads into model(8, 5). */
  private Map<String, float[]> saveEditLoad(Path prefix, Consumer<JsonObject> edit)
      throws Exception {
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
      editSymbol(prefix, edit);
      try (ModelRuntime b = model(8, 5)) {
        b.loadParams(prefix);
        assertSameValues(values(a), values(b));
        return values(b);
      }
    }
  }

  /** Rewrites {@code prefix}'s symbol file as {@code edit} changes its JSON. */
  static void editSymbol(Path prefix, Consumer<JsonObject> edit) throws Exception {
    Path symbol = Checkpoint.symbolFile(prefix);
    JsonObject json = JsonParser.parseString(Files.readString(symbol)).getAsJsonObject();
    edit.accept(json);
    Files.writeString(symbol, new GsonBuilder().create().toJson(json));
  }

  /** The node named {@code name} of symbol JSON {@code symbol}. */
  static JsonObject node(JsonObject symbol, String name) {
    for (JsonElement e : symbol.getAsJsonArray("nodes")) {
      if (e.getAsJsonObject().get("name").getAsString().equals(name)) {
        return e.getAsJsonObject();
      }
    }
    throw new AssertionError("no node " + name);
  }

  /** The {@code attrs} object of {@code node}, added if it has none. */
  static JsonObject attrs(JsonObject node) {
    if (!node.has("attrs")) {
      node.add("attrs", new JsonObject());
    }
    return node.getAsJsonObject("attrs");
  }

  @Test
  void whatMxnetAddsOrSpellsDifferentlyIsIgnored() throws Exception {
    Path prefix = dir.resolve("harmless");
    saveEditLoad(
        prefix,
        s -> {
          s.remove("arg_nodes");
          s.remove("node_row_ptr");
          s.getAsJsonObject("attrs")
              .add("mxnet_version", JsonParser.parseString("[\"int\", 10600]"));
          for (JsonElement n : s.getAsJsonArray("nodes")) {
            attrs(n.getAsJsonObject()).addProperty("__profiler_scope__", "<unk>:");
          }
          attrs(node(s, "hidden_weight")).addProperty("__shape__", "(8, 6)");
          attrs(node(s, "hidden")).addProperty("num_hidden", " 8 ");
          attrs(node(s, "hidden")).addProperty("no_bias", "false");
          attrs(node(s, "hidden")).addProperty("flatten", "1");
          // Input entries without their version number, as older MXNet wrote them.
          for (JsonElement n : s.getAsJsonArray("nodes")) {
            JsonArray inputs = n.getAsJsonObject().getAsJsonArray("inputs");
            for (JsonElement in : inputs) {
              in.getAsJsonArray().remove(2);
            }
          }
        });
    // Older MXNet spelled the attributes "attr" (and "param").
    saveEditLoad(
        prefix,
        s -> {
          JsonObject h = node(s, "hidden");
          h.add("param", h.remove("attrs"));
        });
  }

  @Test
  void nodesAreMatchedByNameNotPosition() throws Exception {
    Path prefix = dir.resolve("reordered");
    // Swap the two variables logits_weight and logits_bias and fix the references.
    saveEditLoad(
        prefix,
        s -> {
          JsonArray nodes = s.getAsJsonArray("nodes");
          int w = -1;
          for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).getAsJsonObject().get("name").getAsString().equals("logits_weight")) {
              w = i;
            }
          }
          JsonElement weight = nodes.get(w);
          nodes.set(w, nodes.get(w + 1));
          nodes.set(w + 1, weight);
          for (JsonElement n : nodes) {
            for (JsonElement in : n.getAsJsonObject().getAsJsonArray("inputs")) {
              JsonArray entry = in.getAsJsonArray();
              int k = entry.get(0).getAsInt();
              if (k == w || k == w + 1) {
                entry.set(0, new com.google.gson.JsonPrimitive(k == w ? w + 1 : w));
              }
            }
          }
        });
  }

  @Test
  void theOrderOfSeveralOutputsIsIgnored() throws Exception {
    GraphBuilder b = new GraphBuilder("Two");
    Sym x = b.input(new NodeSource("x", "Two.x()", "@Input"), Shape.of(-1, 3));
    Sym h = b.node(new NodeSource("h", "Two.h()", "@Dense"), DenseOp.units(4), x);
    Sym y = b.node(new NodeSource("y", "Two.y()", "@Dense"), DenseOp.units(2), h);
    Path prefix = dir.resolve("two");
    try (ModelRuntime m = new ModelRuntime("TwoModel", b.build(List.of(y, h)), Init.xavier(), 3)) {
      m.save(prefix);
      editSymbol(
          prefix,
          s -> {
            JsonArray heads = s.getAsJsonArray("heads");
            JsonElement first = heads.remove(0);
            heads.add(first);
          });
      m.loadParams(prefix);
      editSymbol(prefix, s -> s.getAsJsonArray("heads").remove(0));
      assertEquals(
          Checkpoint.symbolFile(prefix)
              + ": not this model's architecture: the "
              + "outputs are 'y' in the file, the model has 'y', 'h'",
          refusedBy(m, prefix, Checkpoint.symbolFile(prefix)));
    }
  }

  @Test
  void everyKindOfDifferenceNamesTheNodeAndBothSides() throws Exception {
    Path prefix = dir.resolve("edited");
    Path symbol = Checkpoint.symbolFile(prefix);
    String head = symbol + ": not this model's architecture: ";
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
    }
    String original = Files.readString(symbol);
    record Edit(Consumer<JsonObject> edit, String message) {}
    List<Edit> edits =
        List.of(
            new Edit(
                s -> node(s, "hidden").addProperty("op", "Convolution"),
                "node 'hidden': the file has operator Convolution, the model has operator "
                    + "FullyConnected"),
            new Edit(
                s -> attrs(node(s, "hidden")).remove("flatten"),
                "node 'hidden': operator FullyConnected attribute flatten is not set in the file, "
                    + "the model has True"),
            new Edit(
                s -> attrs(node(s, "logits")).addProperty("cudnn_off", "True"),
                "node 'logits': operator FullyConnected attribute cudnn_off is True in the file, "
                    + "the model does not set it"),
            new Edit(
                s -> node(s, "hidden_relu").addProperty("name", "hidden_act"),
                "the model's node 'hidden_relu' (operator Activation) is not in the file"),
            new Edit(
                s -> {
                  JsonObject extra = new JsonObject();
                  extra.addProperty("op", "null");
                  extra.addProperty("name", "label");
                  extra.add("inputs", new JsonArray());
                  s.getAsJsonArray("nodes").add(extra);
                },
                "the file has node 'label' (a variable), which the model does not have"),
            new Edit(
                s -> node(s, "logits").getAsJsonArray("inputs").remove(2),
                "node 'logits': operator FullyConnected has 2 inputs in the file ('hidden_relu', "
                    + "'logits_weight'), the model has 3 ('hidden_relu', 'logits_weight', "
                    + "'logits_bias')"),
            new Edit(
                s ->
                    node(s, "logits")
                        .getAsJsonArray("inputs")
                        .get(0)
                        .getAsJsonArray()
                        .set(1, new com.google.gson.JsonPrimitive(1)),
                "node 'logits': input 0 is 'hidden_relu' output 1 in the file, the model has "
                    + "'hidden_relu'"));
    for (Edit e : edits) {
      Files.writeString(symbol, original);
      editSymbol(prefix, e.edit());
      assertEquals(head + e.message(), rejected(prefix, false, symbol));
    }
  }

  @Test
  void aSymbolFileThatIsNotASymbolIsNamedWithWhatWasExpected() throws Exception {
    Path prefix = dir.resolve("bad");
    Path symbol = Checkpoint.symbolFile(prefix);
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
    }
    Files.writeString(symbol, "{\"nodes\": [");
    assertTrue(
        rejected(prefix, false, symbol).startsWith(symbol + ": not an MXNet symbol: not JSON ("));
    Files.writeString(symbol, "{\"nodes\": 3, \"heads\": []}");
    assertEquals(
        symbol + ": not an MXNet symbol: the graph has no \"nodes\" array",
        rejected(prefix, false, symbol));
    Files.writeString(
        symbol,
        "{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": "
            + "[[4, 0, 0]]}], \"heads\": [[0, 0, 0]]}");
    assertEquals(
        symbol + ": not an MXNet symbol: node 0 (x) inputs: [4,0,0] names no node before it",
        rejected(prefix, false, symbol));
    Files.write(symbol, new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'});
    assertEquals(
        symbol + ": is not UTF-8 text, expected MXNet symbol JSON",
        rejected(prefix, false, symbol));
    Files.writeString(symbol, "[".repeat(100_000));
    assertTrue(
        rejected(prefix, false, symbol).startsWith(symbol + ": not an MXNet symbol: not JSON ("),
        "deep nesting is an error, not a crash");
    Files.delete(symbol);
    Files.createDirectory(symbol);
    assertEquals(
        symbol
            + ": is a directory, expected the checkpoint's symbol (MXNet JSON) "
            + "beside bad-0000.params",
        rejected(prefix, false, symbol));
  }

  @Test
  void aMissingSymbolFileIsRefusedUnlessLenient() throws Exception {
    Path prefix = dir.resolve("nosymbol");
    Map<String, float[]> saved;
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
      saved = values(a);
    }
    Files.delete(Checkpoint.symbolFile(prefix));
    assertEquals(
        Checkpoint.symbolFile(prefix)
            + ": missing: expected the symbol (MXNet JSON) "
            + "beside nosymbol-0000.params, which every MXNet, DJL and Kiln checkpoint has; "
            + "without it the parameters cannot be checked against this model's architecture "
            + "(load leniently to load them by name and shape alone)",
        rejected(prefix, false, Checkpoint.symbolFile(prefix)));
    try (ModelRuntime m = model(8, 5)) {
      m.loadParams(prefix, true);
      assertSameValues(saved, values(m));
    }
  }

  @Test
  void everySaveWritesAnIntegrityFileInSha256sumFormat() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
    }
    byte[] params = Files.readAllBytes(Checkpoint.paramsFile(prefix));
    String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(params));
    assertEquals(
        digest + "  mlp-0000.params\n",
        Files.readString(Checkpoint.integrityFile(prefix), StandardCharsets.UTF_8));
  }

  @Test
  void aFlippedBitInTheDataIsFoundByTheIntegrityFile() throws Exception {
    Path prefix = dir.resolve("mlp");
    Map<String, float[]> saved;
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
      saved = values(a);
    }
    Path params = Checkpoint.paramsFile(prefix);
    byte[] bytes = Files.readAllBytes(params);
    String good = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    bytes[24 + 40 + 5] ^= 0x10; // Inside the first array's float data.
    Files.write(params, bytes);
    String bad = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    assertEquals(
        params
            + ": damaged: its SHA-256 is "
            + bad
            + ", but "
            + Checkpoint.integrityFile(prefix)
            + " records "
            + good
            + " (the file changed after it "
            + "was saved: a damaged disk or copy, or an edit)",
        rejected(prefix, false, params));
    // Without the integrity file (as MXNet and DJL write checkpoints) the same file loads:
    // the format has no checksum of its own.
    Files.delete(Checkpoint.integrityFile(prefix));
    try (ModelRuntime m = model(8, 5)) {
      m.loadParams(prefix);
      assertFalse(
          java.util.Arrays.equals(saved.get("hidden_weight"), values(m).get("hidden_weight")));
    }
  }

  @Test
  void integrityFilesAreReadAsSha256sumWritesThem() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
    }
    Path integrity = Checkpoint.integrityFile(prefix);
    String digest = Files.readString(integrity).substring(0, 64);
    for (String harmless :
        List.of(
            digest.toUpperCase(java.util.Locale.ROOT) + "  mlp-0000.params",
            digest + " *mlp-0000.params\r\n",
            digest + "  renamed-0000.params\n")) {
      Files.writeString(integrity, harmless);
      try (ModelRuntime m = model(8, 5)) {
        m.loadParams(prefix);
      }
    }
    Files.writeString(integrity, "d41d8cd98f00b204e9800998ecf8427e  mlp-0000.params\n");
    assertEquals(
        integrity
            + ": expected one line '<64 hex digits>  mlp-0000.params' (the "
            + "format of sha256sum), found 'd41d8cd98f00b204e9800998ecf8427e  mlp-0000.params\\n'",
        rejected(prefix, false, integrity));
    Files.write(integrity, new byte[5000]);
    assertEquals(
        integrity
            + ": is 5,000 bytes long, expected one line of at most 4,096 bytes: "
            + "the SHA-256 of mlp-0000.params in hex, two spaces, its name",
        rejected(prefix, false, integrity));
  }

  @Test
  void readParamsChecksTheIntegrityFileToo() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
      Path params = Checkpoint.paramsFile(prefix);
      byte[] bytes = Files.readAllBytes(params);
      bytes[bytes.length - 1] ^= 1; // The last key's last byte.
      Files.write(params, bytes);
      Map<String, float[]> before = values(a);
      CheckpointException e =
          assertThrows(
              CheckpointException.class,
              () -> Checkpoint.readParams(params, CheckpointTest.arrays(a), false));
      assertTrue(e.getMessage().startsWith(params + ": damaged: its SHA-256 is "));
      assertSameValues(before, values(a));
    }
  }

  @Test
  void sameValueComparesAsMxnetParses() {
    assertTrue(SymbolCheck.sameValue("(3,3)", "[3, 3]"));
    assertTrue(SymbolCheck.sameValue("(3,)", "(3)"));
    assertTrue(SymbolCheck.sameValue("0.001", "1e-3"));
    assertTrue(SymbolCheck.sameValue("True", "1"));
    assertTrue(SymbolCheck.sameValue("false", "False"));
    assertFalse(SymbolCheck.sameValue("(3,3)", "(3,3,3)"));
    assertFalse(SymbolCheck.sameValue("relu", "Relu"));
    assertFalse(SymbolCheck.sameValue("2", "True"));
    assertFalse(SymbolCheck.sameValue("1e999999999", "1e999999998"));
    String x = "{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []}], ";
    assertNull(
        SymbolCheck.firstDifference(
            SymbolFile.parse(x + "\"heads\": [[0, 0, 0]]}"),
            SymbolFile.parse(x + "\"heads\": [[0, 0]], \"attrs\": {}}")));
  }
}
