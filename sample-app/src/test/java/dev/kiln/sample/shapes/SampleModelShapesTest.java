package dev.kiln.sample.shapes;

import static dev.kiln.annotations.Dim.BATCH;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Compilation;
import dev.kiln.testing.KilnCompiler;
import dev.kiln.testing.KilnDiagnostic;
import dev.kiln.testing.ModelDescription;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The sample models' shapes and sizes as the processor infers them, checked with kiln-testing (the
 * example of docs/testing.md): no MXNet, no generated code to call, only the compiler.
 */
class SampleModelShapesTest {
  private static final Path MODELS = Path.of("src/main/java/dev/kiln/sample/models");

  @Test
  void leNetCompilesCleanWithTheShapesItsCommentsGive() {
    Compilation c = KilnCompiler.compile(MODELS.resolve("FashionLeNet.java")).assertClean();

    ModelDescription lenet = c.model("FashionLeNet");
    assertArrayEquals(new int[] {BATCH, 20, 24, 24}, lenet.shape("conv1"));
    assertArrayEquals(new int[] {BATCH, 20, 12, 12}, lenet.shape("pool1"));
    assertArrayEquals(new int[] {BATCH, 50, 8, 8}, lenet.shape("conv2"));
    assertArrayEquals(new int[] {BATCH, 50, 4, 4}, lenet.shape("pool2"));
    assertArrayEquals(new int[] {256, 800}, lenet.parameterShape("hidden_weight"));
    assertEquals(233_266, lenet.parameterCount());
    assertEquals(20 * 5 * 5, lenet.parameterCount("conv1"));
    assertEquals(2 * 20, lenet.parameterCount("bn1"));
  }

  @Test
  void theMlpHasTheParameterCountTheDocsGive() {
    ModelDescription mlp =
        KilnCompiler.compile(MODELS.resolve("FashionMlp.java")).assertClean().model("FashionMlp");

    assertEquals(101_770, mlp.parameterCount());
    assertEquals("[BATCH, 10]", mlp.shapeText("probs"));
  }

  @Test
  void aConvolutionOverRowsIsOneErrorOnItsLine() {
    Compilation c =
        KilnCompiler.compile(
            Path.of("src/test/resources/broken/dev/kiln/sample/models/LeNetWithoutReshape.java"));

    KilnDiagnostic error = c.assertFails("WrongRank", 16);
    assertTrue(error.message().contains("@Reshape(shape = {BATCH, 1, 28, 28})"), error.message());
  }
}
