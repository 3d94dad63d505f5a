package dev.kiln.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class KilnCompilerTest {
  private static final Path GOOD = Path.of("src/test/resources/good/demo/Mlp.java");
  private static final Path SKIP = Path.of("src/test/resources/bad/demo/Skip.java");
  private static final Path UNUSED = Path.of("src/test/resources/bad/demo/Unused.java");

  @Test
  void aGoodModelCompilesCleanAndDescribesItsShapes() {
    Compilation c = KilnCompiler.compile(GOOD).assertClean();

    assertEquals(
        List.of("demo.MlpExec", "demo.MlpGraph", "demo.MlpModel"),
        List.copyOf(new java.util.TreeSet<>(c.generatedSources().keySet())));
    ModelDescription m = c.model("Mlp");
    assertEquals("demo.Mlp", m.name());
    assertEquals(m, c.model("demo.Mlp"));
    assertEquals(List.of("pixels", "hidden", "normed", "logits", "probs"), m.nodes());
    assertEquals(List.of("pixels"), m.inputs());
    assertEquals(List.of("probs"), m.outputs());
    assertArrayEquals(new int[] {-1, 784}, m.shape("pixels"));
    assertArrayEquals(new int[] {-1, 128}, m.shape("hidden"));
    assertEquals("[BATCH, 10]", m.shapeText("probs"));
    assertEquals("@Dense(units = 128, activation = Act.RELU)", m.layer("hidden"));
    assertEquals(784 * 128 + 128, m.parameterCount("hidden"));
    assertEquals(2 * 128, m.parameterCount("normed"));
    assertEquals(0, m.parameterCount("probs"));
    assertEquals(784 * 128 + 128 + 2 * 128 + 128 * 10 + 10, m.parameterCount());
    assertEquals(
        List.of(
            "hidden_weight",
            "hidden_bias",
            "normed_gamma",
            "normed_beta",
            "logits_weight",
            "logits_bias"),
        List.copyOf(m.parameters().keySet()));
    assertArrayEquals(new int[] {128, 784}, m.parameterShape("hidden_weight"));
    assertEquals(
        List.of("normed_moving_mean", "normed_moving_var"),
        List.copyOf(m.auxiliaryStates().keySet()));
    assertArrayEquals(new int[] {128}, m.auxiliaryStates().get("normed_moving_var"));
  }

  /**
   * A model with free dimensions: an input's free axes read as the model's own constants, a size
   * derived from them as {@link ModelDescription#FREE}, and the text as the processor writes it (a
   * newcomer's test of {@code shapeText} got {@code [BATCH, 16, BATCH, BATCH]}).
   */
  @Test
  void freeDimensionsAreTheirConstantsAndTheirExpressions() {
    ModelDescription m =
        KilnCompiler.compile(Path.of("src/test/resources/good/dims/Fcn.java"))
            .assertClean()
            .model("Fcn");

    assertArrayEquals(new int[] {-1, 1, -10, -11}, m.shape("image"));
    assertEquals("[BATCH, 1, H, W]", m.shapeText("image"));
    assertArrayEquals(
        new int[] {-1, 16, ModelDescription.FREE, ModelDescription.FREE}, m.shape("conv2"));
    assertEquals("[BATCH, 16, H / 2 - 2, W / 2 - 2]", m.shapeText("conv2"));
    assertEquals("[BATCH, 16, 1, 1]", m.shapeText("global"));
    assertArrayEquals(new int[] {-1, 10}, m.shape("probs"));
    assertArrayEquals(new int[] {16, 8, 3, 3}, m.parameterShape("conv2_weight"));
    assertTrue(m.toString().contains("conv2 [BATCH, 16, H / 2 - 2, W / 2 - 2]"), m::toString);
  }

  @Test
  void aNameTheModelLacksIsNamedWithTheOnesItHas() {
    ModelDescription m = KilnCompiler.compile(GOOD).model("Mlp");

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> m.shape("hiden"));
    assertEquals(
        "demo.Mlp has no node 'hiden'; its nodes are [pixels, hidden, normed, logits, " + "probs]",
        e.getMessage());
  }

  @Test
  void aBrokenModelFailsWithOneErrorOnItsLine() {
    Compilation c = KilnCompiler.compile(SKIP);

    KilnDiagnostic error = c.assertFails("ShapeMismatch", 15);
    assertTrue(error.message().contains("@Add needs equal shapes"), error.message());
    assertEquals(Path.of("Skip.java"), error.file().getFileName());
    assertTrue(c.generatedSources().isEmpty());
    AssertionError none = assertThrows(AssertionError.class, () -> c.model("Skip"));
    assertTrue(none.getMessage().contains("[kiln:ShapeMismatch]"), none.getMessage());
  }

  @Test
  void theWrongIdOrLineFailsTheAssertionWithTheDiagnostics() {
    Compilation c = KilnCompiler.compile(SKIP);

    AssertionError wrongId =
        assertThrows(AssertionError.class, () -> c.assertFails("UnknownWire", 15));
    assertTrue(
        wrongId
            .getMessage()
            .startsWith(
                "expected [kiln:UnknownWire] on line 15, got " + "[kiln:ShapeMismatch] on line 15"),
        wrongId.getMessage());
    assertThrows(AssertionError.class, () -> c.assertFails("ShapeMismatch", 14));
    AssertionError notClean = assertThrows(AssertionError.class, c::assertClean);
    assertTrue(
        notClean.getMessage().contains("Skip.java:15: error: [kiln:ShapeMismatch]"),
        notClean.getMessage());
    assertThrows(
        AssertionError.class, () -> KilnCompiler.compile(GOOD).assertFails("ShapeMismatch", 15));
  }

  @Test
  void aWarningIsNotClean() {
    Compilation c = KilnCompiler.compile(UNUSED);

    c.assertWarns("UnusedNode", 13);
    assertTrue(c.succeeded());
    assertThrows(AssertionError.class, c::assertClean);
    assertEquals(
        List.of(-1, 4),
        java.util.Arrays.stream(c.model("Unused").shape("forgotten")).boxed().toList());
  }

  @Test
  void aSourceGivenAsTextCompilesToo() throws Exception {
    String text = Files.readString(SKIP).replace("@Dense(units = 128)", "@Dense(units = 784)");

    Compilation c = KilnCompiler.compile("demo/Skip.java", text).assertClean();
    assertArrayEquals(new int[] {-1, 784}, c.model("Skip").shape("skip"));
    assertFalse(c.generatedSources().isEmpty());
  }

  @Test
  void aMissingFileIsAnError() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> KilnCompiler.compile(Path.of("no/Such.java")));
    assertTrue(e.getMessage().endsWith("no/Such.java is not a source file"), e.getMessage());
  }
}
