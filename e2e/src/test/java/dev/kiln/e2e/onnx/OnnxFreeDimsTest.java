package dev.kiln.e2e.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import dev.kiln.processor.Inspector;
import dev.kiln.runtime.Init;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An ONNX file exported with dynamic height and width ({@code dim_param}s {@code height} and {@code
 * width}, {@link OnnxFixtures#fcn()}): {@code kiln import --onnx} declares them as free dimensions,
 * the interface compiles, and the model, its weights read from the file, computes what ONNX Runtime
 * computes from the same file at three image sizes.
 */
class OnnxFreeDimsTest {
  private static final Path FILE = OnnxFixtures.DIR.resolve("fcn.onnx");

  /** Height and width: even and square, even, and odd (the pooling floors). */
  private static final int[][] SIZES = {{8, 8}, {12, 10}, {9, 15}};

  @Test
  void theFileIsWhatTheFixturesWrite() throws IOException {
    assertArrayEquals(OnnxFixtures.fcn(), Files.readAllBytes(FILE));
  }

  @Test
  void theInterfaceIsWhatImportWrites() throws IOException {
    Inspector.Inspection i =
        Inspector.inspectOnnx(
            "OnnxFcn",
            "dev.kiln.e2e.onnx",
            "fcn.onnx",
            Files.readAllBytes(FILE),
            List.of(),
            List.of());
    assertEquals(List.of(), i.errors());
    String ours =
        Files.readString(
            Path.of("src/test/java/dev/kiln/e2e/onnx/OnnxFcn.java"), StandardCharsets.UTF_8);
    assertEquals(
        ours.substring(ours.indexOf("\n@Model")),
        i.source().substring(i.source().indexOf("\n@Model")));
  }

  @Test
  void atThreeSizesItComputesWhatOnnxRuntimeDoes() throws Exception {
    Random rng = new Random(9);
    try (OnnxFcnModel m = OnnxFcnModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      assertEquals(List.of(), m.loadImported(FILE));
      for (int[] hw : SIZES) {
        OnnxPeer.Input x = OnnxPeer.random(rng, 2, 3, hw[0], hw[1]);
        float[] expected = OnnxPeer.onnxRuntime(FILE, Map.of("input", x)).get(0);
        float[] actual =
            m.forward(nd.create(x.values(), new ai.djl.ndarray.types.Shape(x.shape())))
                .toFloatArray();
        assertEquals(2 * 3 * (hw[0] / 2 * 2) * (hw[1] / 2 * 2), actual.length);
        assertArrayEquals(expected, actual, 1e-5f, hw[0] + "x" + hw[1]);
      }
      assertEquals(SIZES.length, m.runtime().executorCount());
    }
  }
}
