package dev.kiln.runtime.graph.precision;

import dev.kiln.ops.ConvKernels;
import dev.kiln.ops.Native;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The number format a model's training graph computes in. The weights, their gradients, the
 * optimizer's state, the loss and the inference graph are float32 either way.
 *
 * <p>{@link #BF16} is mixed precision through MXNet 1.9.1's AMP pass ({@code
 * MXReducePrecisionSymbol}): {@code Convolution} and {@code FullyConnected} compute in bfloat16 on
 * oneDNN's bf16 kernels, activations and pooling between them follow in bfloat16, and every other
 * operator (batch and layer norm, softmax and the loss heads, element-wise and tensor operators,
 * {@code batch_dot}, which has no bf16 kernel, the recurrent layers) stays float32, with {@code
 * amp_cast} nodes where the two meet. Each weight stays a float32 argument, cast to bfloat16 where
 * a convolution or dense layer reads it, so its gradient comes back as float32 and the optimizer
 * updates float32 master weights. It needs a CPU with AVX-512 BF16 and oneDNN (MXNet's own kernels
 * have no bfloat16 case and abort); {@link #refusal()} says when either is missing.
 */
public enum Precision {
  /** Float32 throughout: the default. */
  FP32,
  /** Convolutions and dense layers in bfloat16, the rest float32, float32 master weights. */
  BF16;

  /** The operators that compute in bfloat16, as their units declare ({@link Native#bf16()}). */
  static final List<String> LOW = Native.withBf16(Native.Bf16.LOW);

  /** Operators that run in whatever type reaches them (oneDNN has bfloat16 kernels for them). */
  static final Set<String> FOLLOW = Set.copyOf(Native.withBf16(Native.Bf16.FOLLOW));

  /** {@code fp32} or {@code bf16}, as the command line writes it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The precision labelled {@code label} (any case); an error naming both choices otherwise. */
  public static Precision of(String label) {
    for (Precision p : values()) {
      if (p.label().equalsIgnoreCase(label)) {
        return p;
      }
    }
    throw new IllegalArgumentException("precision must be fp32 or bf16, got '" + label + "'");
  }

  /**
   * {@code training} as this precision computes it: itself for {@link #FP32}; for {@link #BF16} a
   * new graph over MXNet's AMP pass of its symbol (same inputs, parameters and outputs), which the
   * caller owns, {@code training} closed.
   */
  public Graph apply(Graph training) {
    if (this == FP32) {
      return training;
    }
    try {
      return training.copy(Precision::bfloat16);
    } finally {
      training.close();
    }
  }

  /** MXNet's AMP pass over the symbol {@code json}, every argument staying float32. */
  private static String bfloat16(String json) {
    try (SymbolHandle symbol = SymbolHandle.fromJson(json);
        SymbolHandle low =
            symbol.bfloat16(symbol.arguments(), LOW, float32Ops(json), float32Convolutions(json))) {
      return low.toJson();
    }
  }

  /**
   * The convolutions of {@code symbolJson} that stay float32: those that read a variable (the
   * model's input) as their data and run on a blocked kernel ({@link ConvKernels}). On this
   * machine's oneDNN such a first layer runs in float32 on the blocked direct kernel ({@code
   * jit:avx512_common}, output in 16-channel blocks), which has no bfloat16 counterpart for a
   * one-channel input: in bfloat16 it fell back to a GEMM convolution with plain layouts, and the
   * batch norm after it to oneDNN's reference kernel (1.5 ms a pass against 0.2, LeNet 16/32 at
   * batch 64), which made the whole step slower than float32. Other first layers gain from bfloat16
   * (their float32 kernel is a GEMM convolution too). See {@code docs/training.md}.
   */
  static List<String> float32Convolutions(String symbolJson) {
    SymbolFile graph = SymbolFile.parse(symbolJson);
    List<String> names = new ArrayList<>();
    for (SymbolFile.Node n : graph.nodes()) {
      if (n.op().equals("Convolution")
          && !n.inputs().isEmpty()
          && graph.node(n.inputs().get(0)).isVariable()
          && ConvKernels.blocked(filters(n))) {
        names.add(n.name());
      }
    }
    return names;
  }

  /** The convolution's filter count, or 0 (a multiple of 16) when the attribute is unreadable. */
  private static int filters(SymbolFile.Node conv) {
    return ConvKernels.filters(conv.attrs().get("num_filter")).orElse(0);
  }

  /**
   * Every operator of {@code symbolJson} that neither computes in bfloat16 nor follows its input.
   */
  static List<String> float32Ops(String symbolJson) {
    Set<String> ops = new TreeSet<>();
    for (SymbolFile.Node n : SymbolFile.parse(symbolJson).nodes()) {
      if (!n.isVariable() && !LOW.contains(n.op()) && !FOLLOW.contains(n.op())) {
        ops.add(n.op());
      }
    }
    return new ArrayList<>(ops);
  }

  /**
   * Why this machine cannot train in this precision, or null when it can: always null for {@link
   * #FP32}; for {@link #BF16}, a CPU without AVX-512 BF16 or MXNet without oneDNN.
   */
  public String refusal() {
    String cpuinfo;
    try {
      cpuinfo = Files.readString(Path.of("/proc/cpuinfo"));
    } catch (IOException | RuntimeException e) {
      cpuinfo = null;
    }
    return refusal(cpuinfo, System.getenv("MXNET_MKLDNN_ENABLED"));
  }

  /** {@link #refusal()} for the given {@code /proc/cpuinfo} text and oneDNN setting. */
  String refusal(String cpuinfo, String mkldnnEnabled) {
    if (this == FP32) {
      return null;
    }
    if (cpuinfo == null) {
      return "bf16 training needs a CPU with AVX-512 BF16, and without /proc/cpuinfo Kiln cannot "
          + "tell whether this one has it: train in fp32";
    }
    if (!cpuinfo.contains("avx512_bf16")) {
      Matcher model = Pattern.compile("model name\\s*:\\s*(.+)").matcher(cpuinfo);
      String cpu = model.find() ? model.group(1).trim() : "this CPU";
      return "bf16 training needs a CPU with AVX-512 BF16 (flag avx512_bf16 in /proc/cpuinfo), "
          + "and "
          + cpu
          + " has none: MXNet would run it on a slow emulation or not at all; train in fp32";
    }
    if ("0".equals(mkldnnEnabled)) {
      return "bf16 training runs on oneDNN's kernels, and MXNET_MKLDNN_ENABLED=0 turns them off "
          + "(MXNet's own kernels have no bfloat16 case): unset it, or train in fp32";
    }
    return null;
  }
}
