package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.List;
import java.util.Map;

/**
 * One MXNet {@code SymbolHandle} that Kiln owns: a variable, an operator composed over other
 * symbols, one output of a multi-output symbol, a group, or a symbol read from JSON; freed ({@code
 * MXSymbolFree}) by {@link #close()}. Every method is one checked MXNet call on the symbol.
 *
 * <p>Only this package sees the native pointer. A handle used after {@link #close()} throws {@link
 * IllegalStateException}; closing twice does nothing.
 */
public final class SymbolHandle implements AutoCloseable {
  private Pointer pointer;

  private SymbolHandle(Pointer pointer) {
    this.pointer = pointer;
  }

  /** Takes ownership of a symbol MXNet made (e.g. an executor's optimised symbol). */
  static SymbolHandle own(Pointer pointer) {
    return new SymbolHandle(pointer);
  }

  /** A variable named {@code name} ({@code MXSymbolCreateVariable}). */
  public static SymbolHandle variable(String name) {
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXSymbolCreateVariable(name, ref), "MXSymbolCreateVariable(" + name + ")");
    return new SymbolHandle(ref.getValue());
  }

  /**
   * Operator {@code op} with attributes {@code keys[i] = values[i]} ({@code
   * MXSymbolCreateAtomicSymbol}), not yet composed over its inputs.
   *
   * @throws MxException with MXNet's text when the operator rejects an attribute
   */
  public static SymbolHandle operator(String op, String[] keys, String[] values) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api().MXSymbolCreateAtomicSymbol(Mx.op(op), keys.length, keys, values, ref),
        "MXSymbolCreateAtomicSymbol(" + op + ")");
    return new SymbolHandle(ref.getValue());
  }

  /**
   * Composes this operator, named {@code name}, over {@code args} ({@code MXSymbolCompose}): by
   * keyword when {@code keys} is given, else by position.
   *
   * @throws MxException with MXNet's text when the inputs do not fit the operator
   */
  public void compose(String name, String[] keys, SymbolHandle[] args) {
    Mx.check(
        Mx.api().MXSymbolCompose(pointer(), name, args.length, keys, pointers(args)),
        "MXSymbolCompose(" + name + ")");
  }

  /** A new symbol for output {@code index} of this one ({@code MXSymbolGetOutput}). */
  public SymbolHandle output(int index) {
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXSymbolGetOutput(pointer(), index, ref), "MXSymbolGetOutput(" + index + ")");
    return new SymbolHandle(ref.getValue());
  }

  /** A new symbol grouping {@code parts} as its outputs ({@code MXSymbolCreateGroup}). */
  public static SymbolHandle group(SymbolHandle[] parts) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api().MXSymbolCreateGroup(parts.length, pointers(parts), ref), "MXSymbolCreateGroup");
    return new SymbolHandle(ref.getValue());
  }

  /**
   * The symbol a {@code -symbol.json} holds ({@code MXSymbolCreateFromJSON}, which also upgrades
   * the formats of older MXNet versions).
   *
   * @throws MxException with MXNet's text when {@code json} is not a symbol
   */
  public static SymbolHandle fromJson(String json) {
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXSymbolCreateFromJSON(json, ref), "MXSymbolCreateFromJSON");
    return new SymbolHandle(ref.getValue());
  }

  /**
   * A new symbol in which the operators {@code lowOps} compute in bfloat16 and {@code fp32Ops} in
   * float32, with casts between, every argument in {@code arguments} staying float32 (MXNet's AMP
   * pass, {@code MXReducePrecisionSymbol}); operators in neither list follow their inputs' type.
   */
  public SymbolHandle bfloat16(List<String> arguments, List<String> lowOps, List<String> fp32Ops) {
    return bfloat16(arguments, lowOps, fp32Ops, List.of());
  }

  /** As the other, with the nodes named in {@code excluded} left as they are (float32). */
  public SymbolHandle bfloat16(
      List<String> arguments, List<String> lowOps, List<String> fp32Ops, List<String> excluded) {
    PointerByReference ref = new PointerByReference();
    String[] none = new String[0];
    Mx.check(
        Mx.api()
            .MXReducePrecisionSymbol(
                pointer(),
                ref,
                arguments.size(),
                new int[arguments.size()],
                1,
                new int[] {0},
                new int[] {BFLOAT16},
                0,
                lowOps.size(),
                fp32Ops.size(),
                0,
                0,
                excluded.size(),
                0,
                lowOps.toArray(none),
                fp32Ops.toArray(none),
                none,
                none,
                excluded.toArray(none),
                none,
                none,
                none,
                arguments.toArray(none)),
        "MXReducePrecisionSymbol");
    return new SymbolHandle(ref.getValue());
  }

  /** MXNet's type flag for bfloat16 ({@code mshadow::kBfloat16}). */
  private static final int BFLOAT16 = 12;

  /** The symbol as MXNet's JSON ({@code MXSymbolSaveToJSON}). */
  public String toJson() {
    PointerByReference out = new PointerByReference();
    Mx.check(Mx.api().MXSymbolSaveToJSON(pointer(), out), "MXSymbolSaveToJSON");
    return out.getValue().getString(0);
  }

  /** A new symbol whose outputs are every internal output of this one ({@code GetInternals}). */
  public SymbolHandle internals() {
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXSymbolGetInternals(pointer(), ref), "MXSymbolGetInternals");
    return new SymbolHandle(ref.getValue());
  }

  /** The symbol's arguments, in MXNet's order ({@code MXSymbolListArguments}). */
  public List<String> arguments() {
    IntByReference size = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(Mx.api().MXSymbolListArguments(pointer(), size, names), "MXSymbolListArguments");
    return List.of(Mx.strings(names, size.getValue()));
  }

  /** The symbol's auxiliary states, in MXNet's order ({@code MXSymbolListAuxiliaryStates}). */
  public List<String> auxiliaryStates() {
    IntByReference size = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(
        Mx.api().MXSymbolListAuxiliaryStates(pointer(), size, names),
        "MXSymbolListAuxiliaryStates");
    return List.of(Mx.strings(names, size.getValue()));
  }

  /** The symbol's outputs' names, in order ({@code MXSymbolListOutputs}). */
  public List<String> outputs() {
    IntByReference size = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(Mx.api().MXSymbolListOutputs(pointer(), size, names), "MXSymbolListOutputs");
    return List.of(Mx.strings(names, size.getValue()));
  }

  /**
   * MXNet's shape inference over this symbol from the {@code known} argument shapes ({@link
   * ShapeInference#infer}).
   *
   * @throws MxException with MXNet's text when the shapes are inconsistent
   */
  public ShapeInference inferShapes(Map<String, int[]> known) {
    return ShapeInference.infer(pointer(), known);
  }

  /**
   * A new symbol: this one with every subgraph property of MXNet backend {@code backend} applied
   * ({@code MXGenBackendSubgraph}); {@code MKLDNN} fuses a convolution with the batch norm,
   * activation and sum after it and a fully connected layer with its activation.
   *
   * @throws MxException with MXNet's text when the backend is unknown
   */
  public SymbolHandle backendSubgraph(String backend) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api().MXGenBackendSubgraph(pointer(), backend, ref),
        "MXGenBackendSubgraph(" + backend + ")");
    return new SymbolHandle(ref.getValue());
  }

  /**
   * A quantised symbol and the outputs whose ranges calibration measures.
   *
   * @param symbol the quantised symbol (the caller owns it)
   * @param calibrationNames the names of the outputs (of the symbol that was quantised) whose
   *     ranges {@link #calibrated} takes
   */
  public record Quantized(SymbolHandle symbol, List<String> calibrationNames) {}

  /**
   * The int8 version of this symbol on the CPU ({@code MXQuantizeSymbol} with {@code int8},
   * calibration on, tensor-wise): every operator with a quantised kernel runs quantised except the
   * nodes named in {@code excludedNodes} and the operators of the types in {@code excludedOps};
   * {@code mode} is {@code smart} or {@code full}; the parameters in {@code offlineParams} are
   * quantised when the graph is built rather than in every pass.
   *
   * @throws MxException with MXNet's text when the symbol cannot be quantised
   */
  public Quantized quantize(
      List<String> excludedNodes,
      List<String> excludedOps,
      List<String> offlineParams,
      String mode) {
    PointerByReference ref = new PointerByReference();
    IntByReference numCalib = new IntByReference();
    PointerByReference calib = new PointerByReference();
    Mx.check(
        Mx.api()
            .MXQuantizeSymbol(
                pointer(),
                ref,
                new IntByReference(Mx.CPU),
                excludedNodes.size(),
                excludedNodes.toArray(String[]::new),
                excludedOps.size(),
                excludedOps.toArray(String[]::new),
                offlineParams.size(),
                offlineParams.toArray(String[]::new),
                "int8",
                true,
                mode,
                "tensor-wise",
                numCalib,
                calib),
        "MXQuantizeSymbol");
    SymbolHandle q = new SymbolHandle(ref.getValue());
    return new Quantized(q, List.of(Mx.strings(calib, numCalib.getValue())));
  }

  /**
   * A new quantised symbol: this one with the measured range {@code [lows[i], highs[i]]} of output
   * {@code names[i]} set ({@code MXSetCalibTableToQuantizedSymbol}).
   */
  public SymbolHandle calibrated(List<String> names, float[] lows, float[] highs) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api()
            .MXSetCalibTableToQuantizedSymbol(
                pointer(), names.size(), names.toArray(String[]::new), lows, highs, ref),
        "MXSetCalibTableToQuantizedSymbol");
    return new SymbolHandle(ref.getValue());
  }

  /** The native handle; only this package passes it to MXNet. */
  Pointer pointer() {
    Pointer p = pointer;
    if (p == null) {
      throw new IllegalStateException("symbol handle is closed");
    }
    return p;
  }

  private static Pointer[] pointers(SymbolHandle[] handles) {
    Pointer[] out = new Pointer[handles.length];
    for (int i = 0; i < handles.length; i++) {
      out[i] = handles[i].pointer();
    }
    return out;
  }

  /** Frees the symbol ({@code MXSymbolFree}). Idempotent. */
  @Override
  public void close() {
    Pointer p = pointer;
    if (p != null) {
      pointer = null;
      Mx.check(Mx.api().MXSymbolFree(p), "MXSymbolFree");
    }
  }
}
