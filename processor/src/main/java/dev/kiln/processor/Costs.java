package dev.kiln.processor;

import java.util.List;

/**
 * Compile-time cost estimates per example (every {@code BATCH} dimension counted as 1): floating
 * point operations of the forward pass (a multiply-add counts 2) and the bytes of the node's
 * output activation in float32. A custom layer's body is not visible to the processor, so its
 * FLOPs are unknown (-1).
 */
final class Costs {
  private Costs() {}

  /** Forward FLOPs per example of node {@code n}, or -1 when unknown. */
  static long flops(NodeSpec n, List<TShape> inputs, TShape out) {
    LayerSpec layer = n.layer();
    long outElems = out.perExample();
    if (layer instanceof LayerSpec.Dense d) {
      TShape x = inputs.get(0);
      long in = d.flatten() ? x.product(1) : x.dim(x.rank() - 1);
      long macs = outElems * in;
      long bias = d.noBias() ? 0 : outElems;
      long act = d.activation() == dev.kiln.annotations.Act.NONE ? 0 : outElems;
      return 2 * macs + bias + act;
    }
    if (layer instanceof LayerSpec.Activation) {
      return outElems;
    }
    if (layer instanceof LayerSpec.Softmax) {
      return 3 * outElems;
    }
    if (layer instanceof LayerSpec.Add) {
      return (long) (inputs.size() - 1) * outElems;
    }
    if (layer instanceof LayerSpec.Conv2D c) {
      int[] k = LayerSpec.pair(c.kernel());
      long channels = inputs.get(0).dim(1);
      long macs = outElems * channels * k[0] * k[1];
      long bias = c.noBias() ? 0 : outElems;
      long act = c.activation() == dev.kiln.annotations.Act.NONE ? 0 : outElems;
      return 2 * macs + bias + act;
    }
    if (layer instanceof LayerSpec.Pool p) {
      int[] k = LayerSpec.pair(p.kernel());
      return outElems * k[0] * k[1];
    }
    if (layer instanceof LayerSpec.GlobalAvgPool) {
      return inputs.get(0).perExample();
    }
    if (layer instanceof LayerSpec.BatchNorm) {
      return 4 * outElems; // (x - mean) / std * gamma + beta, statistics precomputed
    }
    if (layer instanceof LayerSpec.LayerNorm) {
      return 7 * outElems; // mean, variance, normalise, scale and shift per element
    }
    if (layer instanceof LayerSpec.Dropout) {
      return outElems; // training mode; the identity in inference
    }
    if (layer instanceof LayerSpec.Custom) {
      return -1;
    }
    return 0;
  }

  /** Bytes of the node's float32 output per example. */
  static long activationBytes(TShape out) {
    return 4 * out.perExample();
  }

  /** {@code 1.2 M}, {@code 35.0 K}, {@code 512}: FLOPs or bytes for a table. */
  static String human(long v, String unit) {
    if (v < 0) {
      return "?";
    }
    if (v >= 10_000_000) {
      return String.format(java.util.Locale.ROOT, "%.1f M%s", v / 1e6, unit);
    }
    if (v >= 10_000) {
      return String.format(java.util.Locale.ROOT, "%.1f K%s", v / 1e3, unit);
    }
    return v + (unit.isEmpty() ? "" : " " + unit);
  }
}
