package dev.kiln.e2e.imported;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.processor.Inspector;
import dev.kiln.processor.read.DeclaredModel;
import dev.kiln.runtime.Init;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A symbol file imported with free dimensions ({@code kiln import --input data=BATCH,3,H,W}): MXNet
 * writes a small fully convolutional network ({@link SymbolFiles#fcn()}), the interface {@code
 * import} writes for it compiles, and one model with one set of parameters computes what MXNet's
 * own executor, bound from the same file and arrays at each size, computes at three image sizes
 * (even and odd, square and not).
 */
class FreeDimImportTest {
  private static final double TOLERANCE = 1e-5;

  /**
   * Height and width: even and square, even, and odd (the pooling floors, the output is smaller).
   */
  private static final int[][] SIZES = {{8, 8}, {12, 10}, {9, 15}};

  @Test
  void theInterfaceIsWhatImportWrites() throws IOException {
    Inspector.Inspection i =
        Inspector.inspect(
            "FcnNet",
            "dev.kiln.e2e.imported",
            "fcn-symbol.json",
            Files.readString(SymbolFiles.DIR.resolve("fcn-symbol.json"), StandardCharsets.UTF_8),
            List.of(new DeclaredModel.Input("data", new int[] {-1, 3, -10, -11})),
            List.of(new DeclaredModel.Dim("H", -10), new DeclaredModel.Dim("W", -11)),
            List.of());
    assertEquals(List.of(), i.errors());
    assertEquals(List.of(), i.warnings());
    String ours =
        Files.readString(
            Path.of("src/test/java/dev/kiln/e2e/imported/FcnNet.java"), StandardCharsets.UTF_8);
    assertEquals(
        ours.substring(ours.indexOf("\n@Model")),
        i.source().substring(i.source().indexOf("\n@Model")));
    assertTrue(i.table().contains("[BATCH, 8, H / 2, W / 2]"), i.table());
  }

  @Test
  void atThreeSizesItComputesWhatMxnetsExecutorDoes() throws IOException {
    try (FcnNetModel model = FcnNetModel.create(Init.xavier(), 7)) {
      ImportAgreementTest.randomize(model, new Random(12));
      for (int[] hw : SIZES) {
        double diff =
            ImportAgreementTest.difference(
                model, "fcn-symbol.json", new int[] {2, 3, hw[0], hw[1]});
        assertTrue(
            diff <= TOLERANCE,
            hw[0] + "x" + hw[1] + ": largest difference from MXNet's executor: " + diff);
      }
      assertEquals(SIZES.length, model.runtime().executorCount());
    }
  }

  @Test
  void theOutputHasTheSizeTheCompilerWrote() {
    try (FcnNetModel model = FcnNetModel.create(Init.xavier(), 7);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray x = nd.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(1, 3, 9, 15));
      // [BATCH, 3, 2 * (H / 2), 2 * (W / 2)]
      assertArrayEquals(new long[] {1, 3, 8, 14}, model.forward(x).getShape().getShape());
    }
  }

  @Test
  void anImageTooSmallForThePoolingIsRefusedNamingTheDimension() {
    try (FcnNetModel model = FcnNetModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      NDArray tiny = nd.zeros(new ai.djl.ndarray.types.Shape(1, 3, 1, 6));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> model.forward(tiny));
      assertTrue(
          e.getMessage().startsWith("FcnNetModel: H = 1, W = 6 breaks H >= 2"), e.getMessage());
      assertTrue(e.getMessage().contains("pool0"), e.getMessage());
      assertEquals(0, model.runtime().executorCount());
    }
  }
}
