package dev.kiln.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The suite's own checks can fail: a gradient a few percent off is caught, comparisons report
 * mismatches, and a model the processor rejects fails at compile with its errors.
 */
class SuiteSelfTest {
  private static final String SMOOTH =
      """
      package regression;

      import static dev.kiln.annotations.Dim.BATCH;

      import dev.kiln.annotations.*;

      @Model
      public interface Smooth {
        @Input(shape = {BATCH, 5})
        Sym x();

        @Dense(units = 4, activation = Act.TANH)
        Sym hidden(Sym x);

        @Dense(units = 3)
        Sym score(Sym hidden);
      }
      """;

  private static ModelCase smooth(String source) {
    return new ModelCase(
        "Smooth",
        "regression.Smooth",
        0,
        true,
        "xavier",
        Map.of("regression.Smooth", source),
        java.util.List.of());
  }

  @Test
  void gradientCheckPassesOnBackwardAndFailsOnAGradientThreePercentOff() {
    ModelCompiler.Compiled c = ModelCompiler.compile(smooth(SMOOTH));
    for (double skew : new double[] {1, 1.03}) {
      try (DiffModel m = DiffModel.create(c.loader(), "regression.Smooth", "xavier", 4);
          NDManager nd = NDManager.newBaseManager()) {
        Random rng = new Random(1);
        float[] x = new float[3 * 5];
        for (int i = 0; i < x.length; i++) {
          x[i] = (float) rng.nextGaussian();
        }
        SymbolInfo info = SymbolInfo.parse(m.symbolJson(), m.inputNames());
        GradientChecker.Result r =
            new GradientChecker(
                    m, nd, info, new Feeds.Arrays(new float[][] {x}, new int[][] {{3, 5}}), rng, 1)
                .skewed(skew)
                .run();
        assertTrue(r.checked() >= 12, r.notes().toString());
        if (skew == 1) {
          assertEquals(java.util.List.of(), r.failures());
        } else {
          assertFalse(r.failures().isEmpty(), "a gradient 3% off went unnoticed: " + r.notes());
        }
      }
    }
  }

  @Test
  void comparisonsReportTheFirstMismatch() {
    assertNull(Compare.exact(new float[] {1, Float.NaN}, new float[] {1, Float.NaN}));
    assertNotNull(Compare.exact(new float[] {1, 2}, new float[] {1, Math.nextUp(2f)}));
    assertNull(Compare.close(new float[] {100, 1}, new float[] {100.001f, 1}, 1e-4, 1e-5));
    String bad = Compare.close(new float[] {100, 1}, new float[] {100, 1.1f}, 1e-4, 1e-5);
    assertTrue(bad.contains("worst at [1]"), bad);
    assertNotNull(Compare.close(new float[] {1}, new float[] {Float.NaN}, 1, 1));
    assertNotNull(Compare.finite(new float[] {0, Float.POSITIVE_INFINITY}));
    float[] hundred = new float[100];
    java.util.Arrays.fill(hundred, 1f);
    float[] oneOff = hundred.clone();
    oneOff[7] = 1.005f;
    assertNull(Compare.closeMostly(hundred, oneOff, 1e-3, 0, 1, 0.01, 10));
    float[] twoOff = oneOff.clone();
    twoOff[8] = 1.005f;
    assertNotNull(Compare.closeMostly(hundred, twoOff, 1e-3, 0, 1, 0.01, 10));
    oneOff[7] = 1.05f;
    assertNotNull(Compare.closeMostly(hundred, oneOff, 1e-3, 0, 1, 0.01, 10));
  }

  @Test
  void aModelTheProcessorRejectsFailsToCompileWithItsErrors() {
    ModelCompiler.CompileException e =
        assertThrows(
            ModelCompiler.CompileException.class,
            () ->
                ModelCompiler.compile(
                    smooth(SMOOTH.replace("Sym score(Sym hidden)", "Sym score(Sym hiden)"))));
    assertTrue(e.getMessage().contains("[kiln:UnknownWire]"), e.getMessage());
  }
}
