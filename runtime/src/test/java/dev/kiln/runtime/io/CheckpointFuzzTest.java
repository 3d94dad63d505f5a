package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.BatchNormOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A few hundred mutations of a Kiln checkpoint (its parameter, symbol and integrity files), from a
 * fixed seed: truncations, byte flips, huge dimension claims, wrong magics, dtypes, storage types,
 * contexts, counts and keys, edits of the symbol JSON and of the integrity line. Every one must
 * either load exactly the saved values (a harmless mutation) or fail with a {@link
 * CheckpointException} naming the file, leaving the model as it was, and no load may allocate more
 * than a small multiple of the files' size on the heap.
 */
class CheckpointFuzzTest {
  private static final long SEED = 0x5EED_C0FFEEL;
  private static final long MIB = 1 << 20;

  @TempDir Path dir;

  /** 6 -> hidden (8, relu) -> bn (BatchNorm: 2 parameters, 2 auxiliary states) -> logits 3. */
  static Graph graph() {
    GraphBuilder b = new GraphBuilder("Fuzz");
    Sym x = b.input(new NodeSource("x", "Fuzz.x()", "@Input"), Shape.of(-1, 6));
    Sym h =
        b.node(
            new NodeSource("hidden", "Fuzz.hidden()", "@Dense"),
            DenseOp.units(8).activation(Act.RELU),
            x);
    Sym n = b.node(new NodeSource("bn", "Fuzz.bn()", "@BatchNorm"), BatchNormOp.channelAxis(1), h);
    Sym y = b.node(new NodeSource("logits", "Fuzz.logits()", "@Dense"), DenseOp.units(3), n);
    return b.build(List.of(y));
  }

  /** A mutated checkpoint: the three files' bytes, null for a file that is absent. */
  record Case(String name, byte[] params, byte[] symbol, byte[] integrity) {}

  /** Where the parts of the valid parameter file lie. */
  static final class Layout {
    /** Per array the offsets of magic, storage, ndim, dims, device, dtype, data; then ndim. */
    final List<int[]> arrays = new ArrayList<>();

    final List<Integer> dataLength = new ArrayList<>();
    int keyCount;
    final List<Integer> keyAt = new ArrayList<>();

    /** Finds the parts of the valid file {@code b}. */
    Layout(byte[] b) {
      ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
      in.position(16);
      long n = in.getLong();
      for (int i = 0; i < n; i++) {
        int magic = in.position();
        in.getInt();
        int storage = in.position();
        in.getInt();
        int ndimAt = in.position();
        int ndim = in.getInt();
        int dims = in.position();
        long size = 1;
        for (int d = 0; d < ndim; d++) {
          size *= in.getLong();
        }
        int dev = in.position();
        in.getInt();
        in.getInt();
        int dtype = in.position();
        in.getInt();
        int data = in.position();
        arrays.add(new int[] {magic, storage, ndimAt, dims, dev, dtype, data, ndim});
        dataLength.add((int) size * 4);
        in.position(data + (int) size * 4);
      }
      keyCount = in.position();
      in.getLong();
      for (int i = 0; i < n; i++) {
        keyAt.add(in.position());
        long len = in.getLong();
        in.position(in.position() + (int) len);
      }
    }

    /** Whether offset {@code at} lies in some array's float data. */
    boolean inData(int at) {
      for (int i = 0; i < arrays.size(); i++) {
        int start = arrays.get(i)[6];
        if (at >= start && at < start + dataLength.get(i)) {
          return true;
        }
      }
      return false;
    }
  }

  private static byte[] putInt(byte[] b, int at, int v) {
    byte[] c = b.clone();
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    return c;
  }

  private static byte[] putLong(byte[] b, int at, long v) {
    byte[] c = b.clone();
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putLong(at, v);
    return c;
  }

  /** The file with its key section replaced: {@code count}, then each key's length and bytes. */
  private static byte[] withKeys(byte[] b, Layout l, long count, List<byte[]> keys) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(b, 0, l.keyCount);
    ByteBuffer eight = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    out.writeBytes(eight.putLong(0, count).array());
    for (byte[] k : keys) {
      out.writeBytes(
          ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, k.length).array());
      out.writeBytes(k);
    }
    return out.toByteArray();
  }

  private static List<byte[]> keys(byte[] b, Layout l) {
    List<byte[]> out = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    for (int at : l.keyAt) {
      int len = (int) in.getLong(at);
      out.add(Arrays.copyOfRange(b, at + 8, at + 8 + len));
    }
    return out;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] json(byte[] symbol, Consumer<JsonObject> edit) {
    JsonObject o =
        JsonParser.parseString(new String(symbol, StandardCharsets.UTF_8)).getAsJsonObject();
    edit.accept(o);
    return ascii(new GsonBuilder().setPrettyPrinting().create().toJson(o));
  }

  private static JsonObject node(JsonObject s, String name) {
    return CheckpointVerificationTest.node(s, name);
  }

  private static JsonObject attrs(JsonObject n) {
    return CheckpointVerificationTest.attrs(n);
  }

  /** Every mutation of the valid files {@code p} (params), {@code s} (symbol), {@code h}. */
  static List<Case> mutations(byte[] p, byte[] s, byte[] h) {
    SplittableRandom rnd = new SplittableRandom(SEED);
    Layout l = new Layout(p);
    List<Case> cases = new ArrayList<>();
    // With the integrity file: any flipped bit anywhere, or swapped keys of equal shapes, is
    // found.
    for (int i = 0; i < 60; i++) {
      int at = rnd.nextInt(p.length);
      byte[] c = p.clone();
      c[at] ^= (byte) (1 << rnd.nextInt(8));
      cases.add(new Case("flip at " + at + " (integrity file present)", c, s, h));
    }
    List<byte[]> k = keys(p, l);
    List<byte[]> swapped = new ArrayList<>(k);
    swapped.set(1, k.get(3));
    swapped.set(3, k.get(1));
    cases.add(
        new Case(
            "swap keys 1 and 3 (same shape, integrity present)",
            withKeys(p, l, k.size(), swapped),
            s,
            h));
    // Without it, as MXNet and DJL write checkpoints: the parser sees every mutation.
    for (int i = 0; i < 50; i++) {
      int len = rnd.nextInt(p.length);
      cases.add(new Case("truncate to " + len, Arrays.copyOf(p, len), s, null));
    }
    for (int i = 0; i < 70; i++) {
      int at;
      do {
        at = rnd.nextInt(p.length);
      } while (l.inData(at));
      byte[] c = p.clone();
      c[at] = (byte) rnd.nextInt(256);
      cases.add(new Case("header/key byte " + at + " := " + (c[at] & 0xff), c, s, null));
    }
    long[] hugeDims = {
      1L << 40,
      1L << 62,
      Long.MAX_VALUE,
      -1,
      0,
      Integer.MAX_VALUE,
      1L << 31,
      (1L << 32) + 2,
      Long.MIN_VALUE,
      1L << 20
    };
    for (int i = 0; i < 30; i++) {
      int a = rnd.nextInt(l.arrays.size());
      int d = rnd.nextInt(l.arrays.get(a)[7]);
      long v = hugeDims[rnd.nextInt(hugeDims.length)];
      cases.add(
          new Case(
              "array " + a + " dim " + d + " := " + v,
              putLong(p, l.arrays.get(a)[3] + 8 * d, v),
              s,
              null));
    }
    for (int v : new int[] {0, 33, 1000, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 2, 3}) {
      int a = rnd.nextInt(l.arrays.size());
      cases.add(
          new Case("array " + a + " ndim := " + v, putInt(p, l.arrays.get(a)[2], v), s, null));
    }
    for (long v : new long[] {0x113, 0, -1, 0x40404C4A44L, 0x112L << 32}) {
      cases.add(new Case("list magic := " + v, putLong(p, 0, v), s, null));
    }
    cases.add(new Case("reserved := 1", putLong(p, 8, 1), s, null));
    cases.add(new Case("reserved := -1", putLong(p, 8, -1), s, null));
    int[] magics = {0xF993FAC8, ParamsFile.V3_MAGIC, 0, 1, 2, 3, 0x12345678, -1};
    for (int m : magics) {
      int a = rnd.nextInt(l.arrays.size());
      cases.add(
          new Case(
              "array " + a + " magic := " + Integer.toHexString(m),
              putInt(p, l.arrays.get(a)[0], m),
              s,
              null));
    }
    for (int t = 1; t <= 13; t++) {
      int a = rnd.nextInt(l.arrays.size());
      cases.add(
          new Case("array " + a + " dtype := " + t, putInt(p, l.arrays.get(a)[5], t), s, null));
    }
    cases.add(new Case("array 0 dtype := -1", putInt(p, l.arrays.get(0)[5], -1), s, null));
    for (int t : new int[] {-1, 1, 2, 7}) {
      cases.add(new Case("array 1 storage := " + t, putInt(p, l.arrays.get(1)[1], t), s, null));
    }
    for (int t : new int[] {2, 3, 5, 0, 4, 7, -1}) {
      cases.add(new Case("array 2 device type := " + t, putInt(p, l.arrays.get(2)[4], t), s, null));
    }
    cases.add(new Case("array 0 device id := 1", putInt(p, l.arrays.get(0)[4] + 4, 1), s, null));
    cases.add(new Case("array 0 device id := -1", putInt(p, l.arrays.get(0)[4] + 4, -1), s, null));
    // Keys.
    cases.add(
        new Case(
            "unknown key", withKeys(p, l, k.size(), replace(k, 0, ascii("arg:nope"))), s, null));
    cases.add(
        new Case(
            "key without prefix",
            withKeys(p, l, k.size(), replace(k, 1, ascii("hidden_bias"))),
            s,
            null));
    cases.add(
        new Case(
            "arg: for aux:",
            withKeys(p, l, k.size(), replace(k, 6, ascii("arg:bn_moving_mean"))),
            s,
            null));
    cases.add(
        new Case("duplicate key", withKeys(p, l, k.size(), replace(k, 2, k.get(0))), s, null));
    cases.add(
        new Case(
            "invalid UTF-8 key",
            withKeys(
                p,
                l,
                k.size(),
                replace(k, 3, new byte[] {'a', 'r', 'g', ':', (byte) 0xff, (byte) 0xfe})),
            s,
            null));
    cases.add(
        new Case(
            "control character",
            withKeys(p, l, k.size(), replace(k, 4, ascii("arg:bn\0gamma"))),
            s,
            null));
    cases.add(new Case("empty key", withKeys(p, l, k.size(), replace(k, 5, new byte[0])), s, null));
    cases.add(
        new Case(
            "2000-byte key",
            withKeys(p, l, k.size(), replace(k, 0, ascii("arg:" + "w".repeat(1996)))),
            s,
            null));
    for (long v : new long[] {-1, 1L << 40, 1025, 0}) {
      cases.add(new Case("key 0 length := " + v, putLong(p, l.keyAt.get(0), v), s, null));
    }
    for (int i = 0; i < 8; i++) {
      int key = rnd.nextInt(k.size());
      byte[] name = k.get(key).clone();
      name[4 + rnd.nextInt(name.length - 4)] = (byte) ('a' + rnd.nextInt(26));
      cases.add(
          new Case(
              "key " + key + " renamed to " + new String(name, StandardCharsets.UTF_8),
              withKeys(p, l, k.size(), replace(k, key, name)),
              s,
              null));
    }
    // Counts.
    for (long v :
        new long[] {k.size() - 1, k.size() + 1, 0, Long.MIN_VALUE, 1L << 20, (1L << 20) + 1}) {
      cases.add(new Case("array count := " + v, putLong(p, 16, v), s, null));
      cases.add(new Case("key count := " + v, putLong(p, l.keyCount, v), s, null));
    }
    // Appended bytes, nothing, noise, harmless copies.
    for (int i = 0; i < 10; i++) {
      byte[] extra = new byte[1 + rnd.nextInt(100)];
      rnd.nextBytes(extra);
      byte[] c = Arrays.copyOf(p, p.length + extra.length);
      System.arraycopy(extra, 0, c, p.length, extra.length);
      cases.add(new Case("append " + extra.length + " bytes", c, s, null));
    }
    cases.add(new Case("empty params", new byte[0], s, null));
    byte[] noise = new byte[p.length];
    rnd.nextBytes(noise);
    cases.add(new Case("noise params", noise, s, null));
    cases.add(new Case("unchanged, no integrity file", p, s, null));
    // The integrity file.
    String line = new String(h, StandardCharsets.UTF_8);
    String digest = line.substring(0, 64);
    for (int i = 0; i < 8; i++) {
      char[] d = digest.toCharArray();
      int at = rnd.nextInt(64);
      d[at] = d[at] == '0' ? '1' : '0';
      cases.add(new Case("integrity digit " + at, p, s, ascii(new String(d) + line.substring(64))));
    }
    cases.add(
        new Case(
            "integrity upper case",
            p,
            s,
            ascii(digest.toUpperCase(java.util.Locale.ROOT) + line.substring(64))));
    cases.add(new Case("integrity binary marker", p, s, ascii(digest + " *fuzz-0000.params")));
    cases.add(new Case("integrity CRLF", p, s, ascii(digest + "  fuzz-0000.params\r\n")));
    cases.add(new Case("integrity other name", p, s, ascii(digest + "  copy-0000.params\n")));
    cases.add(new Case("integrity one space", p, s, ascii(digest + " fuzz-0000.params\n")));
    cases.add(new Case("integrity cut", p, s, Arrays.copyOf(h, 40)));
    cases.add(new Case("integrity empty", p, s, new byte[0]));
    cases.add(new Case("integrity two lines", p, s, ascii(line + line)));
    cases.add(new Case("integrity md5", p, s, ascii("d41d8cd98f00b204e9800998ecf8427e  x\n")));
    cases.add(new Case("integrity 5000 bytes", p, s, new byte[5000]));
    cases.add(new Case("integrity noise", p, s, Arrays.copyOf(noise, 80)));
    // The symbol, edited as JSON.
    cases.add(
        new Case(
            "num_hidden 8 -> 16",
            p,
            json(s, o -> attrs(node(o, "hidden")).addProperty("num_hidden", "16")),
            h));
    cases.add(
        new Case(
            "act_type relu -> tanh",
            p,
            json(s, o -> attrs(node(o, "hidden_relu")).addProperty("act_type", "tanh")),
            h));
    cases.add(new Case("eps", p, json(s, o -> attrs(node(o, "bn")).addProperty("eps", "0.1")), h));
    cases.add(
        new Case(
            "fix_gamma",
            p,
            json(s, o -> attrs(node(o, "bn")).addProperty("fix_gamma", "True")),
            h));
    cases.add(new Case("op", p, json(s, o -> node(o, "bn").addProperty("op", "LayerNorm")), h));
    cases.add(
        new Case("renamed node", p, json(s, o -> node(o, "logits").addProperty("name", "out")), h));
    cases.add(
        new Case(
            "dropped input",
            p,
            json(s, o -> node(o, "logits").getAsJsonArray("inputs").remove(1)),
            h));
    cases.add(
        new Case(
            "rewired",
            p,
            json(
                s,
                o ->
                    node(o, "logits")
                        .getAsJsonArray("inputs")
                        .get(0)
                        .getAsJsonArray()
                        .set(0, new JsonPrimitive(0))),
            h));
    cases.add(
        new Case(
            "extra node",
            p,
            json(
                s,
                o -> {
                  JsonObject extra = new JsonObject();
                  extra.addProperty("op", "Dropout");
                  extra.addProperty("name", "drop");
                  JsonArray in = new JsonArray();
                  in.add(JsonParser.parseString("[0, 0, 0]"));
                  extra.add("inputs", in);
                  o.getAsJsonArray("nodes").add(extra);
                }),
            h));
    cases.add(new Case("no heads", p, json(s, o -> o.add("heads", new JsonArray())), h));
    cases.add(new Case("heads missing", p, json(s, o -> o.remove("heads")), h));
    cases.add(
        new Case(
            "head out of range",
            p,
            json(
                s,
                o ->
                    o.getAsJsonArray("heads")
                        .get(0)
                        .getAsJsonArray()
                        .set(0, new JsonPrimitive(999))),
            h));
    cases.add(
        new Case(
            "head negative output",
            p,
            json(
                s,
                o ->
                    o.getAsJsonArray("heads")
                        .get(0)
                        .getAsJsonArray()
                        .set(1, new JsonPrimitive(-1))),
            h));
    cases.add(
        new Case(
            "input entry of 1",
            p,
            json(
                s,
                o ->
                    node(o, "logits")
                        .getAsJsonArray("inputs")
                        .set(0, JsonParser.parseString("[5]"))),
            h));
    cases.add(
        new Case(
            "input index 1.5",
            p,
            json(
                s,
                o ->
                    node(o, "logits")
                        .getAsJsonArray("inputs")
                        .set(0, JsonParser.parseString("[1.5, 0, 0]"))),
            h));
    cases.add(
        new Case("name a number", p, json(s, o -> node(o, "bn").add("name", new JsonArray())), h));
    cases.add(
        new Case(
            "attrs an array", p, json(s, o -> node(o, "bn").add("attrs", new JsonArray())), h));
    cases.add(
        new Case(
            "harmless: MXNet's own additions",
            p,
            json(
                s,
                o -> {
                  o.remove("arg_nodes");
                  o.remove("node_row_ptr");
                  o.getAsJsonObject("attrs")
                      .add("mxnet_version", JsonParser.parseString("[\"int\", 1]"));
                  attrs(node(o, "bn")).addProperty("__profiler_scope__", "fuzz:");
                  attrs(node(o, "x")).addProperty("__shape__", "(0, 6)");
                }),
            h));
    cases.add(
        new Case(
            "harmless: spellings",
            p,
            json(
                s,
                o -> {
                  attrs(node(o, "bn")).addProperty("eps", "1e-3");
                  attrs(node(o, "bn")).addProperty("fix_gamma", "false");
                  attrs(node(o, "hidden")).addProperty("num_hidden", " 8");
                }),
            h));
    cases.add(new Case("harmless: pretty printed", p, json(s, o -> {}), h));
    // The symbol, edited as bytes.
    for (int i = 0; i < 30; i++) {
      int at = rnd.nextInt(s.length);
      byte[] c = s.clone();
      c[at] = (byte) rnd.nextInt(256);
      cases.add(new Case("symbol byte " + at + " := " + (c[at] & 0xff), p, c, h));
    }
    for (int i = 0; i < 15; i++) {
      int len = rnd.nextInt(s.length);
      cases.add(new Case("symbol truncated to " + len, p, Arrays.copyOf(s, len), h));
    }
    cases.add(new Case("symbol empty", p, new byte[0], h));
    cases.add(new Case("symbol null", p, ascii("null"), h));
    cases.add(new Case("symbol []", p, ascii("[]"), h));
    cases.add(
        new Case(
            "symbol two documents", p, ascii(new String(s, StandardCharsets.UTF_8) + "{}"), h));
    cases.add(new Case("symbol nested 100000 deep", p, ascii("[".repeat(100_000)), h));
    cases.add(
        new Case(
            "symbol with a comment",
            p,
            ascii("// hi\n" + new String(s, StandardCharsets.UTF_8)),
            h));
    cases.add(new Case("symbol not UTF-8", p, new byte[] {'{', (byte) 0xff, '}'}, h));
    cases.add(new Case("symbol missing", p, null, h));
    return cases;
  }

  private static List<byte[]> replace(List<byte[]> keys, int i, byte[] with) {
    List<byte[]> out = new ArrayList<>(keys);
    out.set(i, with);
    return out;
  }

  private static Map<String, float[]> state(ModelRuntime m) {
    Map<String, float[]> out = new TreeMap<>();
    CheckpointTest.arrays(m).forEach((key, t) -> out.put(key, t.toFloatArray()));
    return out;
  }

  private static void setState(ModelRuntime m, Map<String, float[]> values) {
    Map<String, Tensor> arrays = CheckpointTest.arrays(m);
    values.forEach((key, v) -> arrays.get(key).copyFrom(v));
  }

  private static boolean same(Map<String, float[]> a, Map<String, float[]> b) {
    return a.keySet().equals(b.keySet())
        && a.keySet().stream().allMatch(key -> Arrays.equals(a.get(key), b.get(key)));
  }

  private static void write(Path file, byte[] content) throws Exception {
    Files.deleteIfExists(file);
    if (content != null) {
      Files.write(file, content);
    }
  }

  @Test
  void everyMutationLoadsIdenticallyOrFailsNamingTheFileAndChangesNothing() throws Exception {
    Path base = Files.createDirectories(dir.resolve("base"));
    Path live = Files.createDirectories(dir.resolve("live"));
    Path prefix = live.resolve("fuzz");
    Path paramsFile = Checkpoint.paramsFile(prefix);
    Path symbolFile = Checkpoint.symbolFile(prefix);
    Path integrityFile = Checkpoint.integrityFile(prefix);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (ModelRuntime source = new ModelRuntime("FuzzModel", graph(), Init.xavier(), 1);
        ModelRuntime target = new ModelRuntime("FuzzModel", graph(), Init.xavier(), 2)) {
      Map<String, float[]> saved = state(source);
      saved.replaceAll(
          (key, v) -> {
            float[] w = v.clone();
            for (int i = 0; i < w.length; i++) {
              w[i] += 0.5f + i; // Non-default aux states and biases, so that each is seen.
            }
            return w;
          });
      setState(source, saved);
      source.save(base.resolve("fuzz"));
      byte[] p = Files.readAllBytes(Checkpoint.paramsFile(base.resolve("fuzz")));
      byte[] s = Files.readAllBytes(Checkpoint.symbolFile(base.resolve("fuzz")));
      byte[] h = Files.readAllBytes(Checkpoint.integrityFile(base.resolve("fuzz")));
      Map<String, float[]> poison = state(target);
      List<Case> cases = mutations(p, s, h);
      // The sparse 64 MiB + 1 symbol file: refused by its size, never read.
      cases.add(new Case("symbol of 64 MiB + 1 bytes", p, s, h));
      List<String> failures = new ArrayList<>();
      Map<String, Integer> outcomes = new LinkedHashMap<>();
      long maxAllocated = 0;
      String maxCase = "";
      for (int warm = 0; warm < 3; warm++) {
        write(paramsFile, p);
        write(symbolFile, s);
        write(integrityFile, h);
        target.loadParams(prefix);
        setState(target, poison);
      }
      for (Case c : cases) {
        write(paramsFile, c.params());
        write(symbolFile, c.symbol());
        write(integrityFile, c.integrity());
        if (c.name().startsWith("symbol of 64 MiB")) {
          try (RandomAccessFile f = new RandomAccessFile(symbolFile.toFile(), "rw")) {
            f.setLength(Checkpoint.MAX_SYMBOL_BYTES + 1);
          }
        }
        long sizes =
            (c.params() == null ? 0 : c.params().length)
                + (c.symbol() == null ? 0 : c.symbol().length)
                + (c.integrity() == null ? 0 : c.integrity().length);
        long before = threads.getCurrentThreadAllocatedBytes();
        String outcome;
        try {
          target.loadParams(prefix);
          outcome = "loaded";
          if (!same(saved, state(target))) {
            failures.add(c.name() + ": loaded values that are not the saved ones");
          }
        } catch (UncheckedIOException e) {
          if (e.getCause() instanceof CheckpointException ce) {
            Path f = ce.file();
            outcome =
                "refused: "
                    + (f.equals(paramsFile)
                        ? "params"
                        : f.equals(symbolFile)
                            ? "symbol"
                            : f.equals(integrityFile) ? "integrity" : "other " + f);
            if (!ce.getMessage().startsWith(f + ": ")) {
              failures.add(c.name() + ": message does not start with the file: " + ce.getMessage());
            }
          } else {
            outcome = "other IOException";
            failures.add(c.name() + ": " + e);
          }
          if (!same(poison, state(target))) {
            failures.add(c.name() + ": a failed load changed the model");
          }
        } catch (Throwable t) {
          outcome = "crash";
          failures.add(c.name() + ": crashed with " + t);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        if (allocated > maxAllocated) {
          maxAllocated = allocated;
          maxCase = c.name();
        }
        if (allocated > MIB + 8 * sizes) {
          failures.add(
              c.name() + ": allocated " + allocated + " bytes for " + sizes + " bytes of files");
        }
        outcomes.merge(outcome, 1, Integer::sum);
        setState(target, poison);
      }
      System.out.printf(
          "checkpoint fuzz: %d mutations (params file %,d bytes, symbol %,d, "
              + "integrity %d): %s; largest allocation of one load %,d bytes (%s)%n",
          cases.size(), p.length, s.length, h.length, outcomes, maxAllocated, maxCase);
      assertEquals(List.of(), failures);
      assertTrue(cases.size() >= 300, cases.size() + " mutations");
      assertTrue(outcomes.getOrDefault("loaded", 0) >= 10, "some mutations are harmless");
      for (String file : List.of("params", "symbol", "integrity")) {
        assertTrue(outcomes.getOrDefault("refused: " + file, 0) > 0, outcomes.toString());
      }
    }
  }
}
