package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.onnx.OnnxBuilder;
import dev.kiln.processor.read.DeclaredModel;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Inspector#inspectOnnx}, what {@code kiln inspect --onnx} and {@code import --onnx} run:
 * the inputs come from the file unless given (a symbolic first size is the batch), the interface
 * imports the whole graph, and mistakes are the compiler's errors.
 */
class OnnxInspectorTest {
  /** {@code input.1} [batch, 4] through a dense layer of 3 to {@code out}, and a second head. */
  private static byte[] model(Object... dims) {
    return new OnnxBuilder(13)
        .input("input.1", dims)
        .random("fc.weight", new Random(1), 0.5, 3, 4)
        .random("fc.bias", new Random(2), 0.5, 3)
        .node(
            "Gemm",
            List.of("input.1", "fc.weight", "fc.bias"),
            List.of("/fc/Gemm_output_0"),
            OnnxBuilder.i("transB", 1))
        .node("Relu", List.of("/fc/Gemm_output_0"), List.of("out"))
        .node("Sigmoid", List.of("/fc/Gemm_output_0"), List.of("gate"))
        .output("out", "batch", 3)
        .output("gate", "batch", 3)
        .build()
        .toByteArray();
  }

  @Test
  void theInputsComeFromTheFileAndTheWholeGraphIsImported() {
    Inspector.Inspection i =
        Inspector.inspectOnnx(
            "Tiny", "com.example", "tiny.onnx", model("batch", 4), List.of(), List.of());
    assertEquals(List.of(), i.errors());
    assertTrue(i.source().contains("  @Input(shape = {BATCH, 4})\n  Sym input_1();\n"), i.source());
    assertTrue(
        i.source().contains("  @Imported(onnx = \"tiny.onnx\")\n  Sym out(Sym input_1);\n"),
        i.source());
    assertTrue(i.source().contains("its weights from the same file."), i.source());
    assertTrue(i.table().contains("[BATCH, 3]"), i.table());
    assertTrue(i.table().contains("sigmoid_2  Sigmoid"), i.table());
  }

  @Test
  void aCutNamesTheTensor() {
    Inspector.Inspection i =
        Inspector.inspectOnnx(
            "Tiny", "", "tiny.onnx", model(-1, 4), List.of(), List.of("/fc/Gemm_output_0"));
    assertEquals(List.of(), i.errors());
    assertTrue(
        i.source()
            .contains(
                "  @Imported(onnx = \"tiny.onnx\", output = \"/fc/Gemm_output_0\")\n"
                    + "  Sym _fc_Gemm_output_0(Sym input_1);\n"),
        i.source());
  }

  @Test
  void aSizeNeitherFixedNorNamedAsksForTheInputUnlessItIsGiven() {
    Inspector.Inspection i =
        Inspector.inspectOnnx("Tiny", "", "tiny.onnx", model("batch", -1), List.of(), List.of());
    assertNull(i.source());
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .startsWith(
                "[kiln:OnnxSymbolic] Tiny: input input.1 of tiny.onnx has shape [batch, -1]"),
        i.errors().get(0));
    Inspector.Inspection given =
        Inspector.inspectOnnx(
            "Tiny",
            "",
            "tiny.onnx",
            model("batch", -1),
            List.of(new DeclaredModel.Input("input.1", new int[] {-1, 4})),
            List.of());
    assertEquals(List.of(), given.errors());
  }

  /**
   * A named size past the batch is a free dimension named after it, which the file's layers must
   * take: a dense layer's features cannot be free, and the error names it and the layer.
   */
  @Test
  void aNamedSizeIsAFreeDimensionTheLayersMustTake() {
    Inspector.Inspection i =
        Inspector.inspectOnnx(
            "Tiny", "", "tiny.onnx", model("batch", "features"), List.of(), List.of());
    assertNull(i.source());
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(i.errors().get(0).startsWith("[kiln:UnknownFeatures] "), i.errors().get(0));
    assertTrue(i.errors().get(0).contains("[BATCH, FEATURES]"), i.errors().get(0));
  }

  /**
   * Each {@code dim_param} past the batch is one free dimension, upper-cased (made a Java name),
   * wherever it appears; placeholders from -10 in the order the names first appear.
   */
  @Test
  void dimParamsBecomeDeclaredFreeDimensions() {
    byte[] bytes =
        new OnnxBuilder(13)
            .input("a", "n", 2, "height", "image-width")
            .input("b", "n", 2, "height", "image-width")
            .node("Add", List.of("a", "b"), List.of("sum"))
            .node("Relu", List.of("sum"), List.of("y"))
            .output("y", "n", 2, "height", "image-width")
            .build()
            .toByteArray();
    Inspector.Inspection i =
        Inspector.inspectOnnx("Pair", "", "pair.onnx", bytes, List.of(), List.of());
    assertEquals(List.of(), i.errors());
    assertEquals(
        "@Model\n"
            + "public interface Pair {\n"
            + "  @FreeDim int HEIGHT = -10;\n"
            + "  @FreeDim int IMAGE_WIDTH = -11;\n"
            + "\n"
            + "  @Input(shape = {BATCH, 2, HEIGHT, IMAGE_WIDTH})\n"
            + "  Sym a();\n"
            + "\n"
            + "  @Input(shape = {BATCH, 2, HEIGHT, IMAGE_WIDTH})\n"
            + "  Sym b();\n"
            + "\n"
            + "  @Imported(onnx = \"pair.onnx\")\n"
            + "  Sym y(Sym a, Sym b);\n"
            + "}\n",
        i.source().substring(i.source().indexOf("@Model\n")));
    assertTrue(i.source().contains("import dev.kiln.annotations.FreeDim;\n"), i.source());
  }

  @Test
  void aFileThatIsNoModelSaysWhereItBreaks() {
    byte[] bytes = model("batch", 4);
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length / 2);
    Inspector.Inspection i =
        Inspector.inspectOnnx("Tiny", "", "tiny.onnx", cut, List.of(), List.of());
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .startsWith(
                "[kiln:OnnxNotModel] Tiny: tiny.onnx is not an ONNX model: "
                    + "it breaks at byte "),
        i.errors().get(0));
  }
}
