package dev.kiln.runtime.mxnet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.lang.ref.Reference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kiln's door to libmxnet: loads the library once, checks return codes and turns failures into
 * {@link MxException}s carrying MXNet's own text.
 *
 * <p>Kiln loads the {@code libmxnet.so} bundled in {@code mxnet-native-mkl} where DJL extracts it
 * ({@link NativeLibrary}), without starting DJL's engine, which would first detect the platform,
 * probe for CUDA and load DJL's own interface to the library (about 300 ms of start-up). It then
 * switches MXNet to NumPy shape semantics for the whole process, as DJL's engine does when it
 * starts, so that Kiln behaves the same whether or not the program also uses DJL. Kiln only ever
 * passes complete shapes and uses the {@code Ex} shape calls, which read the same in both modes.
 *
 * <p>Just before it loads the library Kiln settles how many OpenMP threads MXNet's kernels use
 * ({@link OmpThreads}: {@code OMP_NUM_THREADS} as the user set it, else half the cores the JVM may
 * use), since MXNet reads the count only then.
 */
public final class Mx {
  /** MXNet's device type for the CPU. */
  public static final int CPU = 1;

  /** MXNet's {@code dtype} code for float32. */
  public static final int FLOAT32 = 0;

  private static final class Holder {
    static final MxApi API = load();
  }

  private static final Map<String, Pointer> OPS = new ConcurrentHashMap<>();

  private Mx() {}

  private static MxApi load() {
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
    if (System.getProperty("OPT_OUT_TRACKING") == null) {
      System.setProperty("OPT_OUT_TRACKING", "true");
    }
    quietDefaults();
    OmpThreads.apply();
    MxApi api = Native.load(NativeLibrary.path(), MxApi.class);
    if (HandleCounter.enabled()) {
      api = HandleCounter.wrap(api);
    }
    // NumPy shape semantics for the whole process, as DJL's engine sets them when it starts:
    // whether or not the program also uses DJL, MXNet reads shapes the same way.
    check(api, api.MXSetIsNumpyShape(2, new IntByReference()), "MXSetIsNumpyShape");
    // MXNet registers its legacy operators (OperatorProperty ones such as SwapAxis, which the
    // recurrent layers use) only when the operators are first listed, as every MXNet frontend
    // does at start; without it their shapes are not inferred (a fresh JVM that never started
    // DJL's engine, which lists them too, failed every recurrent model).
    check(
        api,
        api.MXListAllOpNames(new IntByReference(), new PointerByReference()),
        "MXListAllOpNames");
    check(api, api.MXRandomSeed(Integer.getInteger(SEED_PROPERTY, 0)), "MXRandomSeed");
    return api;
  }

  /**
   * Environment defaults that keep a CPU run quiet, set before MXNet reads them unless the user set
   * them: {@code MXNET_SUBGRAPH_VERBOSE=0} (MXNet otherwise prints "Subgraph backend MKLDNN is
   * activated." at every bind).
   */
  private static void quietDefaults() {
    if (System.getenv("MXNET_SUBGRAPH_VERBOSE") == null) {
      try {
        LibC.get().setenv("MXNET_SUBGRAPH_VERBOSE", "0", 0);
      } catch (UnsatisfiedLinkError e) {
        // Not a POSIX C library: MXNet keeps printing its notice, nothing else changes.
      }
    }
  }

  /** The loaded library; the first call loads it. */
  public static MxApi api() {
    return Holder.API;
  }

  /** Throws {@link MxException} with MXNet's last error if {@code rc} is not 0. */
  public static void check(int rc, String call) {
    if (rc != 0) {
      throw new MxException(call, Holder.API.MXGetLastError());
    }
  }

  private static void check(MxApi api, int rc, String call) {
    if (rc != 0) {
      throw new MxException(call, api.MXGetLastError());
    }
  }

  /**
   * The system property that seeds MXNet's random generator when Kiln loads the library ({@code
   * -Dkiln.mxnet.seed=7}; 0 when unset).
   */
  public static final String SEED_PROPERTY = "kiln.mxnet.seed";

  /**
   * Reseeds MXNet's one process-wide random generator (dropout masks, random operators). Kiln seeds
   * it once when it loads the library ({@link #SEED_PROPERTY}) and never again by itself: creating
   * a model does not touch it. A reseed costs about a millisecond.
   */
  public static void seed(int seed) {
    check(api().MXRandomSeed(seed), "MXRandomSeed");
  }

  /** The handle of a registered operator, e.g. {@code "FullyConnected"}; cached. */
  public static Pointer op(String name) {
    return OPS.computeIfAbsent(
        name,
        n -> {
          PointerByReference ref = new PointerByReference();
          check(api().NNGetOpHandle(n, ref), "NNGetOpHandle(" + n + ")");
          if (ref.getValue() == null) {
            throw new MxException("NNGetOpHandle(" + n + ")", "no such operator");
          }
          return ref.getValue();
        });
  }

  /** Reads an MXNet-owned {@code const char**} of {@code size} strings. */
  public static String[] strings(PointerByReference array, int size) {
    return size == 0 ? new String[0] : array.getValue().getStringArray(0, size);
  }

  /**
   * Runs an operator imperatively, writing into the given output arrays (in place when an output is
   * also an input, as MXNet's update operators expect).
   */
  public static void invoke(
      String op, Pointer[] inputs, Pointer[] outputs, String[] keys, String[] vals) {
    Memory out = handleBlock(outputs);
    PointerByReference outRef = new PointerByReference(out);
    IntByReference numOut = new IntByReference(outputs.length);
    try {
      check(
          api()
              .MXImperativeInvoke(
                  op(op), inputs.length, inputs, numOut, outRef, keys.length, keys, vals),
          op);
    } finally {
      Reference.reachabilityFence(out);
    }
  }

  /** A native block holding the given handles, for C parameters of type {@code Handle*}. */
  public static Memory handleBlock(Pointer[] handles) {
    Memory block = new Memory((long) Native.POINTER_SIZE * Math.max(1, handles.length));
    for (int i = 0; i < handles.length; i++) {
      block.setPointer((long) i * Native.POINTER_SIZE, handles[i]);
    }
    return block;
  }
}
