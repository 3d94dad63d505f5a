package dev.kiln.runtime.mxnet;

import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts the MXNet handles (NDArrays, symbols, executors) that Kiln's binding creates and frees,
 * for benchmarks and leak checks. It is off unless the JVM starts with {@code
 * -Dkiln.mx.countHandles=true}; then {@link Mx} wraps the loaded library in a counting proxy, and
 * every call through {@link Mx#api()} is counted (a few hundred nanoseconds each). Handles that
 * other libraries (e.g. DJL) create through their own bindings are not seen.
 */
public final class HandleCounter {
  /** The system property that turns counting on. */
  public static final String PROPERTY = "kiln.mx.countHandles";

  /** The kinds of handle counted. */
  public enum Kind {
    /** {@code NDArrayHandle}. */
    NDARRAY,
    /** {@code SymbolHandle}. */
    SYMBOL,
    /** {@code ExecutorHandle}. */
    EXECUTOR,
    /** {@code KVStoreHandle}. */
    KVSTORE
  }

  private static final AtomicLongArray CREATED = new AtomicLongArray(Kind.values().length);
  private static final AtomicLongArray FREED = new AtomicLongArray(Kind.values().length);

  private HandleCounter() {}

  /** Whether counting was requested for this JVM. */
  public static boolean enabled() {
    return Boolean.getBoolean(PROPERTY);
  }

  /** Handles of {@code kind} created so far (0 when counting is off). */
  public static long created(Kind kind) {
    return CREATED.get(kind.ordinal());
  }

  /** Handles of {@code kind} created and not yet freed. */
  public static long live(Kind kind) {
    return CREATED.get(kind.ordinal()) - FREED.get(kind.ordinal());
  }

  /** Handles of every kind created so far. */
  public static long created() {
    long n = 0;
    for (Kind k : Kind.values()) {
      n += created(k);
    }
    return n;
  }

  /** Handles of every kind created and not yet freed. */
  public static long live() {
    long n = 0;
    for (Kind k : Kind.values()) {
      n += live(k);
    }
    return n;
  }

  /** {@code api} behind a proxy that counts the handles its successful calls create and free. */
  static MxApi wrap(MxApi api) {
    InvocationHandler handler = (proxy, method, args) -> invoke(api, method, args);
    return (MxApi)
        Proxy.newProxyInstance(MxApi.class.getClassLoader(), new Class<?>[] {MxApi.class}, handler);
  }

  private static Object invoke(MxApi api, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    // MXImperativeInvoke allocates its outputs only when the caller passes none.
    boolean allocatesOutputs =
        name.equals("MXImperativeInvoke") && ((PointerByReference) args[4]).getValue() == null;
    Object result;
    try {
      result = method.invoke(api, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (!(result instanceof Integer rc) || rc != 0) {
      return result;
    }
    switch (name) {
      case "MXNDArrayCreateEx", "MXNDArraySlice", "MXNDArrayReshape" ->
          CREATED.incrementAndGet(Kind.NDARRAY.ordinal());
      case "MXNDArrayLoad" ->
          CREATED.addAndGet(Kind.NDARRAY.ordinal(), ((IntByReference) args[1]).getValue());
      case "MXExecutorOutputs" ->
          CREATED.addAndGet(Kind.NDARRAY.ordinal(), ((IntByReference) args[1]).getValue());
      case "MXImperativeInvoke" -> {
        if (allocatesOutputs) {
          CREATED.addAndGet(Kind.NDARRAY.ordinal(), ((IntByReference) args[3]).getValue());
        }
      }
      case "MXNDArrayFree" -> FREED.incrementAndGet(Kind.NDARRAY.ordinal());
      case "MXSymbolCreateVariable",
          "MXSymbolCreateAtomicSymbol",
          "MXSymbolCreateGroup",
          "MXSymbolCreateFromJSON",
          "MXSymbolGetInternals",
          "MXSymbolGetOutput",
          "MXGenBackendSubgraph",
          "MXExecutorGetOptimizedSymbol",
          "MXQuantizeSymbol",
          "MXSetCalibTableToQuantizedSymbol",
          "MXReducePrecisionSymbol" ->
          CREATED.incrementAndGet(Kind.SYMBOL.ordinal());
      case "MXSymbolFree" -> FREED.incrementAndGet(Kind.SYMBOL.ordinal());
      case "MXExecutorBindEX" -> CREATED.incrementAndGet(Kind.EXECUTOR.ordinal());
      case "MXExecutorFree" -> FREED.incrementAndGet(Kind.EXECUTOR.ordinal());
      case "MXKVStoreCreate" -> CREATED.incrementAndGet(Kind.KVSTORE.ordinal());
      case "MXKVStoreFree" -> FREED.incrementAndGet(Kind.KVSTORE.ordinal());
      default -> {
        // no handle made or freed
      }
    }
    return result;
  }
}
