package dev.kiln.ops;

import java.util.OptionalInt;

/**
 * Which oneDNN kernel MXNet 1.9.1 runs a convolution on, as far as a symbol's attributes tell.
 * MXNet takes one of oneDNN's blocked kernels (channels in blocks of 16, {@code jit:avx512_common}
 * or {@code brgconv} on this machine) only where the memory of the blocked layout equals that of
 * the plain one ({@code mkldnn_convolution.cc} skips padded blocked formats), that is where the
 * filters fill whole blocks of 16; any other convolution runs as a GEMM convolution in plain
 * layouts. The bf16 pass ({@code graph.precision.Precision}), the inference rewrite that keeps a
 * ReLU away from a GEMM convolution ({@code infer.ReluAfterPool}) and the one that pads a GEMM
 * convolution's filters ({@code infer.ChannelPadding}) decide by this rule.
 */
public final class ConvKernels {
  private ConvKernels() {}

  /** The filter count in a {@code num_filter} attribute's text, if it is a number. */
  public static OptionalInt filters(String numFilter) {
    if (numFilter == null) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(numFilter.trim()));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /**
   * Whether MXNet runs convolutions on oneDNN at all: not where {@code MXNET_MKLDNN_ENABLED=0}
   * selects MXNet's native kernels (im2col and a GEMM, with no blocked layouts).
   */
  public static boolean oneDnn() {
    return !"0".equals(System.getenv("MXNET_MKLDNN_ENABLED"));
  }

  /** Channels in one of oneDNN's blocks on this machine (AVX-512: 16 floats). */
  private static final int BLOCK = 16;

  /** Whether a convolution with {@code filters} filters runs on a blocked kernel. */
  public static boolean blocked(int filters) {
    return filters % BLOCK == 0;
  }

  /** The fewest filters, at least {@code filters}, that run on a blocked kernel. */
  public static int blockedFilters(int filters) {
    return (filters + BLOCK - 1) / BLOCK * BLOCK;
  }
}
