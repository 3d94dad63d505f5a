package dev.kiln.processor;

import static dev.kiln.onnx.OnnxBuilder.ints;

import dev.kiln.onnx.OnnxBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The ONNX files of the bad cases under {@code src/test/resources/bad/onnx}, each with one mistake
 * an import must report, written here ({@code OnnxBadFilesTest} checks the files are these). To
 * write them again: {@code mvn -B -q -pl processor test-compile exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=dev.kiln.processor.OnnxBadFiles}.
 */
public final class OnnxBadFiles {
  static final Path DIR = Path.of("src/test/resources/bad/onnx");

  private OnnxBadFiles() {}

  /** Every file, by name. */
  static Map<String, byte[]> files() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    byte[] relu = relu(13, "N", 4);
    files.put("truncated.onnx", Arrays.copyOf(relu, relu.length / 2));
    files.put("opset22.onnx", relu(22, "N", 4));
    files.put("symbolic.onnx", relu(13, "N", "H"));
    files.put(
        "unknown.onnx",
        new OnnxBuilder(13)
            .input("x", "N", 4)
            .node("Hardmax", List.of("x"), List.of("a"))
            .node("Relu", List.of("a"), List.of("b"))
            .node("Einsum", List.of("b"), List.of("y"))
            .output("y", "N", 4)
            .build()
            .toByteArray());
    files.put(
        "pads.onnx",
        new OnnxBuilder(13)
            .input("x", "N", 1, 6, 6)
            .random("w", new Random(3), 0.1, 2, 1, 3, 3)
            .node("Conv", List.of("x", "w"), List.of("y"), ints("pads", 0, 0, 1, 1))
            .output("y", "N", 2, 5, 5)
            .build()
            .toByteArray());
    // A Shape of a tensor with free sizes, which the translation would fold into a constant.
    files.put(
        "freedim.onnx",
        new OnnxBuilder(13)
            .input("x", "N", 2, "h", "w")
            .node("Shape", List.of("x"), List.of("s"))
            .node("Reshape", List.of("x", "s"), List.of("y"))
            .output("y", "N", 2, "h", "w")
            .build()
            .toByteArray());
    return files;
  }

  private static byte[] relu(int opset, Object... dims) {
    return new OnnxBuilder(opset)
        .input("x", dims)
        .node("Relu", List.of("x"), List.of("y"))
        .output("y", dims)
        .build()
        .toByteArray();
  }

  /** Writes the files into {@link #DIR}. */
  public static void main(String[] args) throws IOException {
    Files.createDirectories(DIR);
    for (Map.Entry<String, byte[]> f : files().entrySet()) {
      Files.write(DIR.resolve(f.getKey()), f.getValue());
    }
  }
}
