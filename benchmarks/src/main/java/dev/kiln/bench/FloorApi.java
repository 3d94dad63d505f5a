package dev.kiln.bench;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.MxApi;
import dev.kiln.runtime.mxnet.NativeLibrary;
import java.util.HashMap;
import java.util.Map;

/**
 * The floor's door to libmxnet: Kiln's JNA interface ({@link MxApi}) and nothing above it, with its
 * own return-code checks and operator look-ups, so that a floor can run in a JVM where Kiln's
 * {@link Mx} (which starts DJL's MXNet engine) was never touched.
 */
final class FloorApi {
  private final MxApi api;
  private final Map<String, Pointer> ops = new HashMap<>();

  private FloorApi(MxApi api) {
    this.api = api;
  }

  /**
   * The library Kiln has loaded ({@link Mx#api()}, counted by Kiln's handle counter when that is
   * on): for measurements in a JVM that runs Kiln too.
   */
  static FloorApi shared() {
    return new FloorApi(Mx.api());
  }

  /**
   * libmxnet loaded the cheapest way: {@code Native.load} of the library DJL extracted, found as
   * Kiln finds it ({@link NativeLibrary#path()}), without starting DJL's engine.
   */
  static FloorApi direct() {
    return new FloorApi(Native.load(NativeLibrary.path(), MxApi.class));
  }

  /** The JNA interface. */
  MxApi api() {
    return api;
  }

  /** Throws with MXNet's last error text unless {@code rc} is 0. */
  void check(int rc, String call) {
    if (rc != 0) {
      throw new IllegalStateException(call + " failed: " + api.MXGetLastError());
    }
  }

  /** The handle of operator {@code name}, looked up once. */
  Pointer op(String name) {
    return ops.computeIfAbsent(
        name,
        n -> {
          PointerByReference ref = new PointerByReference();
          check(api.NNGetOpHandle(n, ref), "NNGetOpHandle(" + n + ")");
          return ref.getValue();
        });
  }

  /** A native block of handles, for {@code NDArrayHandle*} parameters. */
  static Memory block(Pointer[] handles) {
    Memory m = new Memory((long) Native.POINTER_SIZE * Math.max(1, handles.length));
    for (int i = 0; i < handles.length; i++) {
      m.setPointer((long) i * Native.POINTER_SIZE, handles[i]);
    }
    return m;
  }
}
