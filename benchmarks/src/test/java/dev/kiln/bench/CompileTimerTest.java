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
}
