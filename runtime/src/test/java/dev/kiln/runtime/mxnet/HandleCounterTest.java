package dev.kiln.runtime.mxnet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.mxnet.HandleCounter.Kind;
import org.junit.jupiter.api.Test;

/** The counting proxy sees creations and frees, and only successful ones. */
class HandleCounterTest {
  @Test
  void countsArraysCreatedAndFreed() {
    MxApi api = HandleCounter.wrap(Mx.api());
    long created = HandleCounter.created(Kind.NDARRAY);
    long live = HandleCounter.live(Kind.NDARRAY);
    PointerByReference a = new PointerByReference();
    Mx.check(api.MXNDArrayCreateEx(new int[] {2, 3}, 2, Mx.CPU, 0, 0, Mx.FLOAT32, a), "create");
    assertEquals(created + 1, HandleCounter.created(Kind.NDARRAY));
    assertEquals(live + 1, HandleCounter.live(Kind.NDARRAY));

    // An imperative call into a given output makes nothing; one without an output makes one.
    Pointer[] in = {a.getValue()};
    PointerByReference given = new PointerByReference(Mx.handleBlock(new Pointer[] {a.getValue()}));
    Mx.check(
        api.MXImperativeInvoke(
            Mx.op("relu"), 1, in, new IntByReference(1), given, 0, new String[0], new String[0]),
        "relu");
    assertEquals(created + 1, HandleCounter.created(Kind.NDARRAY));
    PointerByReference fresh = new PointerByReference();
    IntByReference n = new IntByReference(0);
    Mx.check(
        api.MXImperativeInvoke(Mx.op("relu"), 1, in, n, fresh, 0, new String[0], new String[0]),
        "relu");
    assertEquals(created + 2, HandleCounter.created(Kind.NDARRAY));
    Mx.check(api.MXNDArrayFree(fresh.getValue().getPointer(0)), "free");
    Mx.check(api.MXNDArrayFree(a.getValue()), "free");
    assertEquals(live, HandleCounter.live(Kind.NDARRAY));
  }

  @Test
  void failedCallsCountNothing() {
    MxApi api = HandleCounter.wrap(Mx.api());
    long created = HandleCounter.created();
    PointerByReference out = new PointerByReference();
    int rc = api.MXSymbolCreateFromJSON("not json", out);
    assertEquals(-1, rc);
    assertEquals(created, HandleCounter.created());
  }
}
