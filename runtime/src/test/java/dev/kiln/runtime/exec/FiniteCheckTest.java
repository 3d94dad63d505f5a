package dev.kiln.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.nio.FloatBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link FiniteCheck} on real MXNet arrays: exact, and it sees writes MXNet has queued. */
class FiniteCheckTest {
  private static Tensor array(float... values) {
    Tensor t = Tensor.zeros(Shape.of(values.length));
    t.copyFrom(values);
    return t;
  }

  @Test
  void finiteArraysPassHugeValuesIncluded() {
    // The squares of these overflow float: a sum-of-squares test would have to look again.
    try (Tensor a = array(3e38f, -3e38f, Float.MAX_VALUE);
        Tensor b = array(0f, -0f, 1e-45f);
        FiniteCheck check = new FiniteCheck(List.of(a, b))) {
      assertEquals(-1, check.firstNonFinite());
    }
  }

  @Test
  void theFirstArrayWithANanOrAnInfinityIsNamed() {
    try (Tensor a = array(1f, 2f);
        Tensor b = array(1f, Float.NaN);
        Tensor c = array(Float.NEGATIVE_INFINITY)) {
      assertEquals(1, new FiniteCheck(List.of(a, b, c)).firstNonFinite());
      assertEquals(0, new FiniteCheck(List.of(c, a)).firstNonFinite());
      assertEquals(-1, new FiniteCheck(List.of(a)).firstNonFinite());
    }
  }

  @Test
  void aViewIsCheckedOverItsOwnElementsOnly() {
    try (Tensor flat = array(1f, 2f, Float.POSITIVE_INFINITY, 4f);
        Tensor head = flat.view(0, Shape.of(2, 1));
        Tensor tail = flat.view(2, Shape.of(2))) {
      assertEquals(-1, new FiniteCheck(List.of(head)).firstNonFinite());
      assertEquals(0, new FiniteCheck(List.of(tail)).firstNonFinite());
    }
  }

  @Test
  void writesMxnetHasQueuedAreWaitedFor() {
    try (Tensor a = array(1f, 0f, 3f)) {
      FiniteCheck check = new FiniteCheck(List.of(a));
      assertEquals(-1, check.firstNonFinite());
      // Queued, not yet necessarily run: x / 0 makes 1 and 3 infinite and 0 NaN.
      for (int i = 0; i < 50; i++) {
        new PreparedOp(
                "_mul_scalar", new NDArrayHandle[] {a.handle()}, new NDArrayHandle[] {a.handle()})
            .run(new String[] {"scalar"}, new String[] {"1.0"});
      }
      new PreparedOp(
              "_div_scalar", new NDArrayHandle[] {a.handle()}, new NDArrayHandle[] {a.handle()})
          .run(new String[] {"scalar"}, new String[] {"0.0"});
      assertEquals(0, check.firstNonFinite());
    }
  }

  @Test
  void bufferScanGivesTheElementIndex() {
    assertEquals(2, FiniteCheck.firstNonFinite(FloatBuffer.wrap(new float[] {0f, 1f, Float.NaN})));
    assertEquals(-1, FiniteCheck.firstNonFinite(FloatBuffer.wrap(new float[0])));
    assertEquals(1, FiniteCheck.firstNonFinite(new float[] {0f, Float.NaN}));
  }

  @Test
  void nothingToCheckIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FiniteCheck(List.of()));
  }
}
