package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.processor.KilnProcessor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code inspect} and {@code import}: from a foreign symbol file to a compiled, checked model in
 * two commands; the table they print is the one the processor computes when it compiles the
 * interface {@code import} wrote.
 */
class ImportCommandTest {
  private static final Path LENET = Path.of("src/test/resources/dev/kiln/cli/lenet-symbol.json");

  @TempDir Path dir;

  private record Run(int code, String out, String err) {}

  private Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      CommandLine cl = Kiln.commandLine();
      StringWriter err = new StringWriter();
      cl.setErr(new PrintWriter(err));
      int code = cl.execute(args);
      cl.getOut().flush();
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString());
    } finally {
      System.setOut(saved);
    }
  }

  @Test
  void inspectPrintsEveryNodeOfTheFile() {
    Run r = run("inspect", "--symbol", LENET.toString(), "--input", "data=BATCH,1,28,28");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("Lenet\nnode "), r.out());
    assertTrue(
        r.out()
            .contains(
                "conv2    Convolution(kernel=(5, 5),        [BATCH, 50, 8, 8]     25050  3203.2 K"),
        r.out());
    assertTrue(
        r.out().contains("total                                                           431080"),
        r.out());
  }

  @Test
  void inspectSaysWhichNodeRejectsTheShape() {
    Run r = run("inspect", "--symbol", LENET.toString(), "--input", "data=BATCH,1,12,12");
    assertEquals(1, r.code());
    assertEquals("", r.out());
    assertTrue(
        r.err()
            .startsWith(
                "[kiln:KernelTooLarge] Lenet.softmax() conv2: the window spans 5 along the height"),
        r.err());
  }

  @Test
  void aBadInputIsAUsageError() {
    Run r = run("inspect", "--symbol", LENET.toString(), "--input", "data=BATCH,1,28,2x");
    assertEquals(2, r.code());
    assertTrue(
        r.err()
            .startsWith(
                "Invalid value for option '--input': 'data=BATCH,1,28,2x': dimension '2x' is "
                    + "neither BATCH, STEPS, a positive whole number nor the name of a free "
                    + "dimension (a Java identifier, e.g. H)"),
        r.err());
    Run zero = run("inspect", "--symbol", LENET.toString(), "--input", "data=BATCH,1,0,28");
    assertEquals(2, zero.code());
    assertTrue(zero.err().contains("dimension '0' is neither BATCH, STEPS"), zero.err());
    Run unknown = run("inspect", "--symbol", LENET.toString(), "--input", "pixels=BATCH,1,28,28");
    assertEquals(1, unknown.code());
    assertTrue(
        unknown
            .err()
            .contains(
                "parameter pixels feeds input pixels, but lenet-symbol.json has no "
                    + "input of that name; its inputs are data"),
        unknown.err());
  }

  /**
   * {@code import} writes the interface and the file beside it; javac with Kiln's processor finds
   * the file on the source path and computes the table {@code import} printed.
   */
  @Test
  void importWritesAnInterfaceThatCompilesToTheSameTable() throws Exception {
    Path src = dir.resolve("src");
    Run r =
        run(
            "import",
            "--symbol",
            LENET.toString(),
            "--input",
            "data=BATCH,1,28,28",
            "--output",
            "tanh3",
            "--package",
            "com.example.zoo",
            "--name",
            "LeNetFeatures",
            "--out",
            src.toString());
    assertEquals(0, r.code(), r.err());
    Path source = src.resolve("com/example/zoo/LeNetFeatures.java");
    assertTrue(Files.exists(src.resolve("com/example/zoo/lenet-symbol.json")));
    String text = Files.readString(source);
    assertTrue(
        text.contains(
            "  @Imported(symbol = \"lenet-symbol.json\", output = \"tanh3\")\n"
                + "  Sym tanh3(Sym data);\n"),
        text);

    Path gen = compile(src, source);
    String model = Files.readString(gen.resolve("com/example/zoo/LeNetFeaturesModel.java"));
    for (String line : r.out().lines().toList()) {
      if (!line.startsWith("wrote ") && !line.isBlank()) {
        assertTrue(model.contains(line.replace("\\", "\\\\")), line);
      }
    }

    Run again =
        run(
            "import",
            "--symbol",
            LENET.toString(),
            "--input",
            "data=BATCH,1,28,28",
            "--output",
            "tanh3",
            "--package",
            "com.example.zoo",
            "--name",
            "LeNetFeatures",
            "--out",
            src.toString());
    assertEquals(1, again.code());
    assertTrue(
        again.err().contains("LeNetFeatures.java exists; kiln import replaces nothing"),
        again.err());
  }

  /**
   * A file of two outputs is imported whole: one {@code @Output} import per output, which compiles
   * without a warning (no output is an unused node).
   */
  @Test
  void importWritesEveryOutputOfAFileOfSeveral() throws Exception {
    Path heads = dir.resolve("heads-symbol.json");
    Files.writeString(
        heads,
        """
        {"nodes": [
          {"op": "null", "name": "data", "inputs": []},
          {"op": "Activation", "name": "relu", "attrs": {"act_type": "relu"}, "inputs": [[0, 0, 0]]},
          {"op": "Activation", "name": "tanh", "attrs": {"act_type": "tanh"}, "inputs": [[0, 0, 0]]}],
         "arg_nodes": [0], "heads": [[1, 0, 0], [2, 0, 0]]}
        """);
    Path src = dir.resolve("src");
    Run r =
        run(
            "import",
            "--symbol",
            heads.toString(),
            "--input",
            "data=BATCH,8",
            "--package",
            "com.example",
            "--name",
            "Heads",
            "--out",
            src.toString());
    assertEquals(0, r.code(), r.err());
    Path source = src.resolve("com/example/Heads.java");
    String text = Files.readString(source);
    assertTrue(
        text.contains(
            "  @Output\n  @Imported(symbol = \"heads-symbol.json\", output = \"relu\")\n"
                + "  Sym relu(Sym data);\n\n  @Output\n  @Imported(symbol = \"heads-symbol.json\", "
                + "output = \"tanh\")\n  Sym tanh(Sym data);\n"),
        text);
    compile(src, source);
  }

  /**
   * Compiles {@code source} with Kiln's processor, {@code src} as the source path, and returns
   * where the generated sources are; fails on any error or warning.
   */
  private Path compile(Path src, Path source) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path gen = Files.createDirectories(dir.resolve("gen"));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      JavaCompiler.CompilationTask task =
          javac.getTask(
              null,
              files,
              diagnostics,
              List.of(
                  "-d",
                  classes.toString(),
                  "-s",
                  gen.toString(),
                  "-sourcepath",
                  src.toString(),
                  "-classpath",
                  System.getProperty("java.class.path")),
              null,
              files.getJavaFileObjects(source));
      task.setProcessors(List.of(new KilnProcessor()));
      assertTrue(task.call(), diagnostics.getDiagnostics().toString());
    }
    assertEquals(List.of(), diagnostics.getDiagnostics(), diagnostics.getDiagnostics().toString());
    return gen;
  }

  private static final Path ONNX_LENET =
      Path.of("../e2e/src/test/resources/dev/kiln/e2e/onnx/lenet.onnx");

  @Test
  void inspectOnnxReadsTheInputsFromTheFile() {
    Run r = run("inspect", "--onnx", ONNX_LENET.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("Lenet\nnode "), r.out());
    assertTrue(r.out().contains("input_1 "), r.out());
    assertTrue(r.out().contains("[BATCH, 1, 28, 28]"), r.out());
    assertTrue(r.out().contains("[BATCH, 10]"), r.out());
  }

  @Test
  void theFileIsSymbolOrOnnxExactlyOnce() {
    Run neither = run("inspect", "--input", "data=BATCH,1,28,28");
    assertEquals(2, neither.code());
    assertTrue(
        neither.err().startsWith("Missing required option: '--symbol=FILE' or '--onnx=FILE'"),
        neither.err());
    Run both = run("inspect", "--symbol", LENET.toString(), "--onnx", ONNX_LENET.toString());
    assertEquals(2, both.code());
    assertTrue(both.err().startsWith("Give one of '--symbol' and '--onnx', not both"), both.err());
    Run noInput = run("inspect", "--symbol", LENET.toString());
    assertEquals(2, noInput.code());
    assertTrue(
        noInput.err().startsWith("Missing required option: '--input=NAME=DIMS'"), noInput.err());
    Run missing = run("inspect", "--onnx", dir.resolve("none.onnx").toString());
    assertEquals(1, missing.code());
    assertTrue(
        missing.err().contains("ONNX file " + dir.resolve("none.onnx") + " not found"),
        missing.err());
  }

  /** {@code import --onnx} with a cut: the interface compiles to the table it printed. */
  @Test
  void importOnnxWritesAnInterfaceThatCompilesToTheSameTable() throws Exception {
    Path src = dir.resolve("src");
    Run r =
        run(
            "import",
            "--onnx",
            ONNX_LENET.toString(),
            "--output",
            "/Relu_3_output_0",
            "--package",
            "com.example.zoo",
            "--name",
            "LenetFeatures",
            "--out",
            src.toString());
    assertEquals(0, r.code(), r.err());
    Path source = src.resolve("com/example/zoo/LenetFeatures.java");
    assertTrue(Files.exists(src.resolve("com/example/zoo/lenet.onnx")));
    String text = Files.readString(source);
    assertTrue(
        text.contains(
            "  @Input(shape = {BATCH, 1, 28, 28})\n"
                + "  Sym input_1();\n\n"
                + "  @Imported(onnx = \"lenet.onnx\", output = \"/Relu_3_output_0\")\n"
                + "  Sym _Relu_3_output_0(Sym input_1);\n"),
        text);
    Path gen = compile(src, source);
    String model = Files.readString(gen.resolve("com/example/zoo/LenetFeaturesModel.java"));
    for (String line : r.out().lines().toList()) {
      if (!line.startsWith("wrote ") && !line.isBlank()) {
        assertTrue(model.contains(line.replace("\\", "\\\\")), line);
      }
    }
  }

  private static final Path FCN =
      Path.of("../e2e/src/test/resources/dev/kiln/e2e/imported/fcn-symbol.json");

  private static final Path ONNX_FCN =
      Path.of("../e2e/src/test/resources/dev/kiln/e2e/onnx/fcn.onnx");

  /**
   * Names in {@code --input} are free dimensions: each a {@code @FreeDim} constant (placeholders
   * from -10, in the order the names first appear) used in the {@code @Input}; the interface
   * compiles to the table printed, its graph names the dimensions and keeps the pooling's rule.
   */
  @Test
  void namesInTheInputAreFreeDimensions() throws Exception {
    Path src = dir.resolve("src");
    Run r =
        run(
            "import",
            "--symbol",
            FCN.toString(),
            "--input",
            "data=BATCH,3,H,W",
            "--package",
            "com.example",
            "--out",
            src.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("[BATCH, 8, H / 2, W / 2]"), r.out());
    Path source = src.resolve("com/example/Fcn.java");
    String text = Files.readString(source);
    assertEquals(
        """
        package com.example;

        import static dev.kiln.annotations.Dim.BATCH;

        import dev.kiln.annotations.FreeDim;
        import dev.kiln.annotations.Imported;
        import dev.kiln.annotations.Input;
        import dev.kiln.annotations.Model;
        import dev.kiln.annotations.Sym;
        """,
        text.substring(0, text.indexOf("\n\n/**") + 1));
    assertEquals(
        """
        @Model
        public interface Fcn {
          @FreeDim int H = -10;
          @FreeDim int W = -11;

          @Input(shape = {BATCH, 3, H, W})
          Sym data();

          @Imported(symbol = "fcn-symbol.json")
          Sym score(Sym data);
        }
        """,
        text.substring(text.indexOf("\n@Model") + 1));
    Path gen = compile(src, source);
    String model = Files.readString(gen.resolve("com/example/FcnModel.java"));
    for (String line : r.out().lines().toList()) {
      if (!line.startsWith("wrote ") && !line.isBlank()) {
        assertTrue(model.contains(line.replace("\\", "\\\\")), line);
      }
    }
    String graph = Files.readString(gen.resolve("com/example/FcnGraph.java"));
    assertTrue(graph.contains(".free(\"H\", \"W\")"), graph);
    assertTrue(graph.contains("H >= 2"), graph);
  }

  /** Two inputs naming the same size share one dimension; the first names come first. */
  @Test
  void oneNameIsOneDimensionAcrossInputs() {
    Path pair = dir.resolve("pair-symbol.json");
    try {
      Files.writeString(
          pair,
          """
          {"nodes": [
            {"op": "null", "name": "a", "inputs": []},
            {"op": "null", "name": "b", "inputs": []},
            {"op": "elemwise_add", "name": "sum", "inputs": [[0, 0, 0], [1, 0, 0]]}],
           "arg_nodes": [0, 1], "heads": [[2, 0, 0]]}
          """);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Run r =
        run(
            "import",
            "--symbol",
            pair.toString(),
            "--input",
            "a=BATCH,T,D",
            "--input",
            "b=batch,T,D",
            "--out",
            dir.resolve("src").toString());
    assertEquals(0, r.code(), r.err());
    Run swapped =
        run(
            "inspect",
            "--symbol",
            pair.toString(),
            "--input",
            "a=BATCH,T,D",
            "--input",
            "b=BATCH,D,T");
    assertEquals(1, swapped.code());
    assertTrue(swapped.err().startsWith("[kiln:FreeDimUnequal] "), swapped.err());
  }

  /** A layer that cannot take a free size says so, naming the file's node. */
  @Test
  void aFreeSizeReachingADenseLayerIsRefusedNamingTheNode() {
    Run r = run("inspect", "--symbol", LENET.toString(), "--input", "data=BATCH,1,H,W");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("[kiln:UnknownFeatures] Lenet.softmax() fc1: "), r.err());
  }

  /**
   * Without {@code --input}, an ONNX file's named sizes past the batch ({@code dim_param}s {@code
   * height}, {@code width}) are the free dimensions {@code HEIGHT} and {@code WIDTH}; the interface
   * compiles to the table printed.
   */
  @Test
  void anOnnxFilesNamedSizesAreFreeDimensions() throws Exception {
    Path src = dir.resolve("src");
    Run r = run("import", "--onnx", ONNX_FCN.toString(), "--out", src.toString());
    assertEquals(0, r.code(), r.err());
    Path source = src.resolve("Fcn.java");
    String text = Files.readString(source);
    assertEquals(
        """
        @Model
        public interface Fcn {
          @FreeDim int HEIGHT = -10;
          @FreeDim int WIDTH = -11;

          @Input(shape = {BATCH, 3, HEIGHT, WIDTH})
          Sym input();

          @Imported(onnx = "fcn.onnx")
          Sym scores(Sym input);
        }
        """,
        text.substring(text.indexOf("\n@Model") + 1));
    Path gen = compile(src, source);
    String model = Files.readString(gen.resolve("FcnModel.java"));
    for (String line : r.out().lines().toList()) {
      if (!line.startsWith("wrote ") && !line.isBlank()) {
        assertTrue(model.contains(line.replace("\\", "\\\\")), line);
      }
    }
    // loadImported reads the file again with the same free sizes.
    assertTrue(
        model.contains(
            "Shape.of(Dim.BATCH, 3, Shape.FREE, Shape.FREE).free(\"HEIGHT\", \"WIDTH\")"),
        model);
    // --input names its own dimensions instead of the file's.
    Run named = run("inspect", "--onnx", ONNX_FCN.toString(), "--input", "input=BATCH,3,H,W");
    assertEquals(0, named.code(), named.err());
    assertTrue(named.out().contains("[BATCH, 3, H, W]"), named.out());
  }
}
