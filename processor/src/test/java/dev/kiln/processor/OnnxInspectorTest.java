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
  void aSymbolicSizeBeyondTheBatchAsksForTheInputUnlessItIsGiven() {
    Inspector.Inspection i =
        Inspector.inspectOnnx(
            "Tiny", "", "tiny.onnx", model("batch", "features"), List.of(), List.of());
    assertNull(i.source());
    assertEquals(1, i.errors().size(), i.errors().toString());
    assertTrue(
        i.errors()
            .get(0)
            .startsWith(
                "[kiln:OnnxSymbolic] Tiny: input input.1 of tiny.onnx has "
                    + "shape [batch, features]"),
        i.errors().get(0));
    Inspector.Inspection given =
        Inspector.inspectOnnx(
            "Tiny",
            "",
            "tiny.onnx",
            model("batch", "features"),
            List.of(new DeclaredModel.Input("input.1", new int[] {-1, 4})),
            List.of());
    assertEquals(List.of(), given.errors());
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
