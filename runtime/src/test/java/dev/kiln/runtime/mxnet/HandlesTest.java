package dev.kiln.runtime.mxnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The typed handles: one checked MXNet call each, idempotent close, no use after close. */
class HandlesTest {
  private static NDArrayHandle array(float... values) {
    NDArrayHandle a = NDArrayHandle.create(new int[] {values.length}, 0);
    a.copyFrom(values, values.length);
    return a;
  }

  private static float[] values(NDArrayHandle a, int n) {
    float[] out = new float[n];
    a.copyTo(out, n);
    return out;
  }

  @Test
  void anArrayCopiesInAndOutAndItsViewsShareItsMemory() {
    try (NDArrayHandle a = array(1, 2, 3, 4, 5, 6)) {
      assertArrayEquals(new int[] {6}, a.shape());
      try (NDArrayHandle slice = a.slice(2, 6);
          NDArrayHandle view = slice.reshape(new int[] {2, 2})) {
        assertArrayEquals(new int[] {2, 2}, view.shape());
        assertArrayEquals(new float[] {3, 4, 5, 6}, values(view, 4));
        view.copyFrom(new float[] {0, 0, 0, 0}, 4);
      }
      assertArrayEquals(new float[] {1, 2, 0, 0, 0, 0}, values(a, 6));
      FloatBuffer direct =
          ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder()).asFloatBuffer();
      direct.put(new float[] {6, 5, 4, 3, 2, 1}).flip();
      a.copyFrom(direct, 6);
      a.waitToRead();
      a.waitToReadPrioritized(0);
      FloatBuffer data = a.data(6);
      assertNotNull(data);
      assertEquals(4f, data.get(2));
      try (NDArrayHandle b = NDArrayHandle.create(new int[] {6}, 0)) {
        b.copyFrom(a);
        FloatBuffer out =
            ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder()).asFloatBuffer();
        b.copyTo(out, 6);
        assertEquals(1f, out.get(5));
      }
    }
  }

  @Test
  void closeIsIdempotentAndLaterUseIsRefused() {
    NDArrayHandle a = array(1);
    a.close();
    a.close();
    assertThrows(IllegalStateException.class, a::shape);
    assertThrows(IllegalStateException.class, () -> HandleArray.of(a));
  }

  @Test
  void aFailedCallCarriesMxnetsText() {
    try (NDArrayHandle a = array(1, 2, 3)) {
      MxException e = assertThrows(MxException.class, () -> a.reshape(new int[] {2, 2}));
      assertTrue(e.getMessage().startsWith("MXNDArrayReshape failed: "), e.getMessage());
      assertFalse(e.mxnetMessage().isBlank());
    }
  }

  @Test
  void anExecutorRunsForwardAndBackwardOverTheArraysItWasBoundTo() {
    try (SymbolHandle x = SymbolHandle.variable("x");
        SymbolHandle relu = SymbolHandle.operator("relu", new String[0], new String[0])) {
      relu.compose("r", null, new SymbolHandle[] {x});
      assertEquals(List.of("x"), relu.arguments());
      try (NDArrayHandle in = array(-1, 2, -3, 4);
          NDArrayHandle grad = array(9, 9, 9, 9);
          NDArrayHandle head = array(1, 1, 1, 1);
          ExecutorHandle exec =
              ExecutorHandle.bind(
                  relu,
                  0,
                  new NDArrayHandle[] {in},
                  new NDArrayHandle[] {grad},
                  new int[] {1},
                  new NDArrayHandle[0])) {
        exec.forward(true);
        NDArrayHandle[] outs = exec.outputs();
        assertEquals(1, outs.length);
        try (NDArrayHandle out = outs[0]) {
          assertArrayEquals(new float[] {0, 2, 0, 4}, values(out, 4));
        }
        exec.backward(HandleArray.of(head));
        assertArrayEquals(new float[] {0, 1, 0, 1}, values(grad, 4));
        exec.close();
        assertThrows(IllegalStateException.class, () -> exec.forward(false));
      }
      relu.close();
      relu.close(); // idempotent
      assertThrows(IllegalStateException.class, relu::toJson);
    }
  }

  @Test
  void aLocalStoreSumsTheRoundsPushes() {
    KvStoreHandle kv = KvStoreHandle.create("local");
    try (NDArrayHandle a = array(1, 2);
        NDArrayHandle b = array(3, 4);
        NDArrayHandle c = NDArrayHandle.create(new int[] {2}, 0)) {
      assertEquals(0, kv.rank());
      assertEquals(1, kv.groupSize());
      kv.init(7, a);
      kv.pushPull(7, List.of(a, b), Function.identity());
      assertArrayEquals(new float[] {4, 6}, values(a, 2));
      assertArrayEquals(new float[] {4, 6}, values(b, 2));
      kv.pushPull(7, List.of(a, b), List.of(c), Function.identity());
      assertArrayEquals(new float[] {8, 12}, values(c, 2));
      kv.pull(7, List.of(b), Function.identity());
      assertArrayEquals(new float[] {8, 12}, values(b, 2));
    } finally {
      kv.close();
    }
    kv.close();
    assertThrows(IllegalStateException.class, kv::rank);
  }
}
