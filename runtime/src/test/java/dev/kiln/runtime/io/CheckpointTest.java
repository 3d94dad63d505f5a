package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import com.sun.jna.Pointer;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.TestHandles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoints of whole models: {@link ModelRuntime#save} and {@link ModelRuntime#loadParams}. */
class CheckpointTest {
  @TempDir Path dir;

  /** A 6 -> hidden (relu) -> 3 perceptron. */
  static Graph mlp(int hidden) {
    GraphBuilder b = new GraphBuilder("Mlp");
    Sym x = b.input(new NodeSource("x", "Mlp.x()", "@Input(shape = {BATCH, 6})"), Shape.of(-1, 6));
    Sym h =
        b.node(
            new NodeSource("hidden", "Mlp.hidden()", "@Dense(units = " + hidden + ")"),
            DenseOp.units(hidden).activation(Act.RELU),
            x);
    Sym y =
        b.node(new NodeSource("logits", "Mlp.logits()", "@Dense(units = 3)"), DenseOp.units(3), h);
    return b.build(List.of(y));
  }

  static ModelRuntime model(int hidden, long seed) {
    ModelRuntime m = new ModelRuntime("MlpModel", mlp(hidden), Init.xavier(), seed);
    // Non-zero biases, so that a bias that failed to load would show.
    for (ParameterStore.Slot s : m.slots()) {
      if (s.name().endsWith("_bias")) {
        float[] v = new float[(int) s.weight().size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = seed + i * 0.25f;
        }
        s.weight().copyFrom(v);
      }
    }
    return m;
  }

  static Map<String, float[]> values(ModelRuntime m) {
    Map<String, float[]> out = new LinkedHashMap<>();
    for (ParameterStore.Slot s : m.slots()) {
      out.put(s.name(), s.weight().toFloatArray());
    }
    return out;
  }

  /** The model's checkpoint table: {@code arg:} every parameter, {@code aux:} every state. */
  static Map<String, Tensor> arrays(ModelRuntime m) {
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (ParameterStore.Slot s : m.slots()) {
      out.put(Checkpoint.argKey(s.name()), s.weight());
    }
    for (ParameterStore.AuxSlot a : m.auxSlots()) {
      out.put(Checkpoint.auxKey(a.name()), a.value());
    }
    return out;
  }

  static void assertSameValues(Map<String, float[]> expected, Map<String, float[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    expected.forEach((k, v) -> assertArrayEquals(v, actual.get(k), 0f, k));
  }

  private List<Path> tempFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
    }
  }

  @Test
  void saveThenLoadRestoresEveryParameterAndTheSameOutputs() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1);
        ModelRuntime b = model(8, 2);
        NDManager nd = NDManager.newBaseManager()) {
      a.save(prefix);
      assertTrue(Files.isRegularFile(dir.resolve("mlp-0000.params")));
      // The model's symbol, with its input's shape recorded for Predictor.load and kiln serve.
      String saved = Files.readString(dir.resolve("mlp-symbol.json"));
      String recorded = "      \"attrs\": {\"__kiln_shape__\": \"(-1,6)\"}, \n";
      assertTrue(saved.contains(recorded), saved);
      assertEquals(a.symbolJson(), saved.replace(recorded, ""));
      b.loadParams(prefix);
      assertSameValues(values(a), values(b));
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(4, 6));
      assertArrayEquals(a.forward(x)[0].toFloatArray(), b.forward(x)[0].toFloatArray(), 0f);
      assertEquals(List.of(), tempFiles());
    }
  }

  @Test
  void paramsFileHoldsArgKeysInArgumentOrderAndIsWhatMxnetSaveWrites() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
      List<NamedArray> arrays = ParamsFile.read(Checkpoint.paramsFile(prefix));
      assertEquals(
          List.of("arg:hidden_weight", "arg:hidden_bias", "arg:logits_weight", "arg:logits_bias"),
          arrays.stream().map(NamedArray::key).toList());
      assertEquals(Shape.of(8, 6), arrays.get(0).shape());
      Path mxnet = dir.resolve("mxnet.params");
      List<ParameterStore.Slot> slots = a.slots();
      Pointer[] handles =
          slots.stream().map(s -> TestHandles.pointer(s.weight().handle())).toArray(Pointer[]::new);
      String[] keys = slots.stream().map(s -> "arg:" + s.name()).toArray(String[]::new);
      MxnetFiles.withNumpyShapeOff(
          () -> {
            Mx.check(
                Mx.api().MXNDArraySave(mxnet.toString(), handles.length, handles, keys),
                "MXNDArraySave");
            return null;
          });
      assertArrayEquals(
          Files.readAllBytes(mxnet), Files.readAllBytes(Checkpoint.paramsFile(prefix)));
    }
  }

  /**
   * Loads a checkpoint into a fresh 8-unit model that must reject it, naming the params file, and
   * stay as it was; returns the message.
   */
  private String rejected(Path prefix, boolean lenient) {
    return rejected(prefix, lenient, Checkpoint.paramsFile(prefix));
  }

  /** As {@link #rejected(Path, boolean)}, where the error must name {@code file}. */
  static String rejected(Path prefix, boolean lenient, Path file) {
    try (ModelRuntime m = model(8, 5)) {
      Map<String, float[]> before = values(m);
      UncheckedIOException e =
          assertThrows(UncheckedIOException.class, () -> m.loadParams(prefix, lenient));
      assertInstanceOf(CheckpointException.class, e.getCause());
      assertEquals(file, ((CheckpointException) e.getCause()).file());
      assertTrue(e.getCause().getMessage().startsWith(file + ": "), e.getCause().getMessage());
      assertEquals(
          "MlpModel: cannot load checkpoint " + prefix + ": " + e.getCause().getMessage(),
          e.getMessage());
      assertSameValues(before, values(m));
      return e.getCause().getMessage();
    }
  }

  /**
   * Writes {@code prefix}'s params file with the arrays of {@code m}, edited by {@code edit}, and
   * {@code m}'s symbol beside it (no integrity file, as MXNet writes checkpoints).
   */
  static void writeEdited(
      Path prefix, ModelRuntime m, java.util.function.Consumer<List<NamedArray>> edit)
      throws IOException {
    List<NamedArray> arrays = new ArrayList<>();
    for (ParameterStore.Slot s : m.slots()) {
      arrays.add(new NamedArray("arg:" + s.name(), s.spec().shape(), s.weight().toFloatArray()));
    }
    edit.accept(arrays);
    ParamsFile.write(Checkpoint.paramsFile(prefix), arrays);
    Files.writeString(Checkpoint.symbolFile(prefix), m.symbolJson());
    Files.deleteIfExists(Checkpoint.integrityFile(prefix));
  }

  @Test
  void missingParameterIsNamedAndNothingChanges() throws Exception {
    Path prefix = dir.resolve("missing");
    try (ModelRuntime a = model(8, 1)) {
      writeEdited(prefix, a, arrays -> arrays.remove(3));
    }
    assertEquals(
        Checkpoint.paramsFile(prefix)
            + ": has no array for 'arg:logits_bias', which "
            + "the model needs; it holds 'arg:hidden_weight', 'arg:hidden_bias', "
            + "'arg:logits_weight'",
        rejected(prefix, false));
    assertTrue(
        rejected(prefix, true).contains("has no array for 'arg:logits_bias'"),
        "lenient allows extras, not gaps");
  }

  @Test
  void extraArrayIsAnErrorUnlessLenient() throws Exception {
    Path prefix = dir.resolve("extra");
    Map<String, float[]> saved;
    try (ModelRuntime a = model(8, 1)) {
      saved = values(a);
      writeEdited(
          prefix,
          a,
          arrays ->
              arrays.add(2, new NamedArray("aux:hidden_moving_mean", Shape.of(8), new float[8])));
    }
    assertEquals(
        Checkpoint.paramsFile(prefix)
            + ": array 2 'aux:hidden_moving_mean' is not in "
            + "the model, whose arrays are 'arg:hidden_weight', 'arg:hidden_bias', "
            + "'arg:logits_weight', 'arg:logits_bias' (load leniently to skip arrays the model does "
            + "not have)",
        rejected(prefix, false));
    try (ModelRuntime m = model(8, 5)) {
      m.loadParams(prefix, true);
      assertSameValues(saved, values(m));
    }
  }

  @Test
  void wrongShapeNamesTheArrayExpectedAndFoundAndNothingChanges() throws Exception {
    Path prefix = dir.resolve("fashion");
    try (ModelRuntime small = model(4, 1)) {
      small.save(prefix);
    }
    assertEquals(
        Checkpoint.symbolFile(prefix)
            + ": not this model's architecture: node "
            + "'hidden': operator FullyConnected attribute num_hidden is 4 in the file, the model "
            + "has 8",
        rejected(prefix, false, Checkpoint.symbolFile(prefix)));
    assertEquals(
        Checkpoint.paramsFile(prefix)
            + ": array 0 'arg:hidden_weight' has shape "
            + "[4, 6], the model needs [8, 6]",
        rejected(prefix, true),
        "a lenient load skips the symbol, not the shapes");
    try (ModelRuntime a = model(8, 1)) {
      writeEdited(
          prefix,
          a,
          arrays ->
              arrays.set(2, new NamedArray("arg:logits_weight", Shape.of(3, 4, 2), new float[24])));
    }
    assertEquals(
        Checkpoint.paramsFile(prefix)
            + ": array 2 'arg:logits_weight' has shape "
            + "[3, 4, 2], the model needs [3, 8]",
        rejected(prefix, false));
  }

  @Test
  void malformedFileChangesNothing() throws Exception {
    Path prefix = dir.resolve("cut");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
    }
    Path params = Checkpoint.paramsFile(prefix);
    byte[] whole = Files.readAllBytes(params);
    Files.write(params, java.util.Arrays.copyOf(whole, whole.length - 40));
    assertTrue(rejected(prefix, false).startsWith(params + ": damaged: its SHA-256 is "));
    Files.delete(Checkpoint.integrityFile(prefix));
    assertTrue(rejected(prefix, false).startsWith(params + ": truncated: "));
  }

  @Test
  void paramsPathThatIsADirectoryIsNamed() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
    }
    Path params = Checkpoint.paramsFile(prefix);
    Files.delete(params);
    Files.createDirectory(params);
    assertEquals(
        params + ": is a directory, expected a .params file (an MXNet NDArray list)",
        rejected(prefix, false));
    CheckpointException e = assertThrows(CheckpointException.class, () -> ParamsFile.read(params));
    assertEquals(params, e.file());
  }

  @Test
  void missingFileIsAnIoErrorNamingIt() {
    try (ModelRuntime m = model(8, 5)) {
      Path prefix = dir.resolve("nothing");
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> m.loadParams(prefix));
      assertInstanceOf(NoSuchFileException.class, e.getCause());
      assertEquals(
          "MlpModel: cannot load checkpoint "
              + prefix
              + ": NoSuchFileException "
              + Checkpoint.paramsFile(prefix),
          e.getMessage());
    }
  }

  @Test
  void existingCheckpointSurvivesAWriterThatFailsMidway() throws Exception {
    Path file = dir.resolve("w-0000.params");
    List<NamedArray> old = ParamsFileTest.sample();
    ParamsFile.write(file, old);
    byte[] before = Files.readAllBytes(file);
    List<String> keys = List.of("arg:a", "arg:b", "arg:c");
    List<Shape> shapes = List.of(Shape.of(1000), Shape.of(1000), Shape.of(1000));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                ParamsFile.write(
                    file,
                    keys,
                    shapes,
                    i -> {
                      if (i == 2) {
                        try {
                          assertEquals(
                              1, tempFiles().size(), "the new file is being written beside");
                        } catch (IOException io) {
                          throw new UncheckedIOException(io);
                        }
                        throw new IllegalStateException("data source failed at array 2");
                      }
                      return new float[1000];
                    }));
    assertEquals("data source failed at array 2", e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(List.of(), tempFiles());
    ParamsFileTest.assertSameArrays(old, ParamsFile.read(file));
  }

  @Test
  void existingCheckpointSurvivesASaveWhoseTensorFails() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      a.save(prefix);
      byte[] params = Files.readAllBytes(Checkpoint.paramsFile(prefix));
      byte[] symbol = Files.readAllBytes(Checkpoint.symbolFile(prefix));
      Map<String, Tensor> arrays = new LinkedHashMap<>();
      for (ParameterStore.Slot s : a.slots()) {
        arrays.put(Checkpoint.argKey(s.name()), s.weight());
      }
      Tensor closed = Tensor.zeros(Shape.of(2));
      closed.close();
      arrays.put(Checkpoint.auxKey("gone"), closed);
      byte[] integrity = Files.readAllBytes(Checkpoint.integrityFile(prefix));
      assertThrows(
          IllegalStateException.class,
          () -> Checkpoint.save(prefix, "{\"changed\": true}", arrays));
      assertArrayEquals(params, Files.readAllBytes(Checkpoint.paramsFile(prefix)));
      assertArrayEquals(symbol, Files.readAllBytes(Checkpoint.symbolFile(prefix)));
      assertArrayEquals(
          integrity,
          Files.readAllBytes(Checkpoint.integrityFile(prefix)),
          "the integrity file, deleted before the parameters are written, is put back");
      assertEquals(List.of(), tempFiles());
      try (ModelRuntime b = model(8, 2)) {
        b.loadParams(prefix);
        assertSameValues(values(a), values(b));
      }
    }
  }

  @Test
  void saveIntoAnImpossibleDirectoryFailsWithTheReason() throws Exception {
    Files.writeString(dir.resolve("plain-file"), "not a directory");
    Path prefix = dir.resolve("plain-file").resolve("mlp");
    try (ModelRuntime a = model(8, 1)) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> a.save(prefix));
      assertTrue(
          e.getMessage().startsWith("MlpModel: cannot write checkpoint " + prefix + ": "),
          e.getMessage());
      assertFalse(Files.exists(Checkpoint.symbolFile(prefix)));
    }
  }

  @Test
  void overwritingKeepsOrdinaryPermissionsAndReplacesContent() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1);
        ModelRuntime b = model(8, 2)) {
      a.save(prefix);
      b.save(prefix);
      try (ModelRuntime c = model(8, 3)) {
        c.loadParams(prefix);
        assertSameValues(values(b), values(c));
      }
      assertEquals(List.of(), tempFiles());
      if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
        Path fresh = dir.resolve("fresh");
        Files.createFile(fresh);
        assertEquals(
            Files.getPosixFilePermissions(fresh),
            Files.getPosixFilePermissions(Checkpoint.paramsFile(prefix)),
            "a checkpoint gets the permissions of any new file, not a temp file's 0600");
      }
    }
  }
}
