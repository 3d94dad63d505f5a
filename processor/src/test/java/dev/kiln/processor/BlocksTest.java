package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code @Block} beyond the golden ({@code blocks.TinyTransformer}): a block of a custom layer gets
 * the custom layer's note (where the compiler does not trace the body: under ecj) once, where the
 * block is compiled, not once per copy; every copy has parameters of its own; nothing generated is
 * wider than 100 columns.
 */
class BlocksTest {
  @ParameterizedTest
  @EnumSource(TestCompiler.class)
  void aBlockOfACustomLayerIsNotedOnceAndEachCopyHasItsOwnParameters(TestCompiler compiler) {
    Result r =
        compiler.compile("good/blocks/AffineStack", "good/blocks/AffineBlock", "layers/Affine");
    assertEquals(List.of(), r.errors(), r.diagnostics().toString());
    assertEquals(List.of(), r.warnings(), r.diagnostics().toString());
    // javac shows the processor the body, which is traced at compile time: no note.
    int notes = compiler == TestCompiler.ECJ ? 1 : 0;
    assertEquals(notes, r.notes().size(), r.diagnostics().toString());
    if (notes == 1) {
      assertTrue(r.notes().get(0).message().contains("AffineBlock.affine()"), r.notes().toString());
    }
    String model = r.source("blocks.AffineStackModel");
    for (int copy = 0; copy < 3; copy++) {
      assertTrue(model.contains("public Parameter stack" + copy + "AffineWeight()"), model);
      assertTrue(model.contains("\"stack" + copy + "_affine_bias\""), model);
    }
    String graph = r.source("blocks.AffineStackGraph");
    assertTrue(graph.contains("public Sym stack(Sym x) {"), graph);
    assertTrue(graph.contains("Sym stack2_relu = stack2_relu(stack2_affine);"), graph);
    for (String file : r.generated().values()) {
      file.lines().forEach(l -> assertTrue(l.length() <= 100, l));
    }
  }
}
