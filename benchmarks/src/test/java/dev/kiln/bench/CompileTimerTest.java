package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** The generated chain model compiles under the Kiln processor; no timing is checked. */
class CompileTimerTest {
  @Test
  void chainSourceHasOneMethodPerNodeEachReadingThePreviousOne() {
    String src = DeepModelSource.source(300, 32);
    assertEquals(300, src.lines().filter(l -> l.matches("  Sym n\\d+\\(.*\\);")).count());
    assertTrue(src.contains("  @Dense(units = 32)\n  Sym n1(Sym n0);"), src);
    assertTrue(src.contains("  @Activation(Act.RELU)\n  Sym n2(Sym n1);"), src);
    assertTrue(src.contains("  @Dense(units = 32)\n  Sym n299(Sym n298);"), src);
    assertThrows(IllegalArgumentException.class, () -> DeepModelSource.source(1, 32));
  }

  @Test
  void compilesAChainWithAndWithoutTheProcessor() {
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    CompileTimer.Result r =
        new CompileTimer(System.getProperty("java.class.path"), quiet).measure(5, 1);
    assertEquals(3, r.generatedFiles(), "Graph, Model and Exec");
    for (CompileTimer.Variant v : CompileTimer.Variant.values()) {
      assertEquals(1, r.warm().get(v).size(), v.label());
    }
    assertTrue(CompileTimer.format(r).contains("The processor adds"));
  }

  @Test
  void freeAndFixedModelsDifferOnlyInTheirSizes() {
    String free = FreeDimModelSource.source(300, true);
    String fixed = FreeDimModelSource.source(300, false);
    assertEquals(300, free.lines().filter(l -> l.matches("  Sym n\\d+\\(.*\\);")).count());
    assertTrue(free.contains("@FreeDim(min = " + FreeDimModelSource.SIZE + ")\n  int H = -10;"));
    assertTrue(fixed.contains("  int H = " + FreeDimModelSource.SIZE + ";"), fixed);
    assertEquals(3, free.split("@MaxPool", -1).length, "a pool after blocks 10 and 20");
    assertTrue(
        layers(free).equals(layers(fixed)), "the same layers, only the sizes' declarations differ");
  }

  private static java.util.List<String> layers(String src) {
    return src.lines()
        .filter(l -> (l.startsWith("  @") && !l.startsWith("  @FreeDim")) || l.startsWith("  Sym"))
        .toList();
  }

  @Test
  void theProcessorAcceptsBothModels() {
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    CompileTimer.FreeDimResult r =
        new CompileTimer(System.getProperty("java.class.path"), quiet).measureFreeDims(120, 1);
    assertEquals(3, r.generatedFiles(), "Graph, Model and Exec of the free model");
    assertEquals(1, r.ratios().size());
    assertTrue(CompileTimer.format(r).contains("Target: at most 1.5"));
  }
}
