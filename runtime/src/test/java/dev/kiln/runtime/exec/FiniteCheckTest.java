package dev.kiln.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
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
  void arrayScanGivesTheElementIndex() {
    assertEquals(1, FiniteCheck.firstNonFinite(new float[] {0f, Float.NaN}));
    assertEquals(-1, FiniteCheck.firstNonFinite(new float[] {0f, Float.MAX_VALUE}));
  }

  /** Every kind of non-finite float, and the finite ones nearest to them. */
  private static final int[] NON_FINITE = {
    0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF, 0xFFFFFFFF
  };

  private static final int[] FINITE = {
    0x7F7FFFFF, 0xFF7FFFFF, 0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x3F800000, 0xBF800000
  };

  /** {@code bits} as native-order floats from byte {@code offset} of a direct buffer. */
  private static ByteBuffer floats(int offset, int[] bits) {
    ByteBuffer b =
        ByteBuffer.allocateDirect(offset + 4 * bits.length).order(ByteOrder.nativeOrder());
    for (int i = 0; i < bits.length; i++) {
      b.putInt(offset + 4 * i, bits[i]);
    }
    b.position(offset);
    return b;
  }

  private static float[] heap(int[] bits) {
    float[] out = new float[bits.length];
    for (int i = 0; i < bits.length; i++) {
      out[i] = Float.intBitsToFloat(bits[i]);
    }
    return out;
  }

  @Test
  void bothScansFindEveryNonFiniteFloatAtEveryPlace() {
    // Lengths odd and even, buffers at every alignment, each special value at every position,
    // among finite neighbours of every sign (a negative last float once set the other half).
    for (int length = 1; length <= 9; length++) {
      for (int offset = 0; offset < 8; offset++) {
        for (int at = 0; at < length; at++) {
          for (int bad : NON_FINITE) {
            int[] bits = new int[length];
            for (int i = 0; i < length; i++) {
              bits[i] = FINITE[(i + at + offset) % FINITE.length];
            }
            assertTrue(FiniteCheck.allFinite(floats(offset, bits)), "finite " + length);
            assertEquals(-1, FiniteCheck.firstNonFinite(heap(bits)), "finite " + length);
            bits[at] = bad;
            assertFalse(
                FiniteCheck.allFinite(floats(offset, bits)),
                Integer.toHexString(bad) + " at " + at + " of " + length + ", offset " + offset);
            assertEquals(
                at,
                FiniteCheck.firstNonFinite(heap(bits)),
                Integer.toHexString(bad) + " at " + at + " of " + length);
            bits[(at + 1 + offset) % length] = NON_FINITE[offset]; // a second one after or before
            assertEquals(
                Math.min(at, (at + 1 + offset) % length), FiniteCheck.firstNonFinite(heap(bits)));
          }
        }
      }
    }
    assertTrue(FiniteCheck.allFinite(floats(0, new int[0])));
    assertEquals(-1, FiniteCheck.firstNonFinite(new float[0]));
  }

  @Test
  void bothScansAgreeWithFloatIsFiniteOnRandomBits() {
    Random random = new Random(38);
    for (int round = 0; round < 2000; round++) {
      int[] bits = new int[1 + random.nextInt(40)];
      boolean finite = true;
      for (int i = 0; i < bits.length; i++) {
        // Mostly finite values; now and then an all-ones exponent with random sign and mantissa.
        bits[i] =
            random.nextInt(30) == 0 ? random.nextInt() | 0x7F800000 : random.nextInt() & ~0x800000;
        finite &= Float.isFinite(Float.intBitsToFloat(bits[i]));
      }
      assertEquals(finite, FiniteCheck.allFinite(floats(4 * random.nextInt(2), bits)));
      assertEquals(finite, FiniteCheck.firstNonFinite(heap(bits)) < 0);
    }
  }

  @Test
  void pairScanRefusesBytesThatAreNotWholeFloats() {
    assertThrows(
        IllegalArgumentException.class, () -> FiniteCheck.allFinite(ByteBuffer.allocate(6)));
  }

  @Test
  void nothingToCheckIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FiniteCheck(List.of()));
  }
}
