package dev.kiln.runtime.graph.trace;

import dev.kiln.ops.emit.Attrs;

/**
 * The fast form of a custom layer's {@code mul}, {@code add} or {@code sub} whose smaller operand
 * varies along one axis only of the other: a per-channel scale {@code [channels, 1, 1]} on an image
 * {@code [BATCH, channels, h, w]}, a gain {@code [features]} on {@code [BATCH, features]}.
 *
 * <p>MXNet 1.9.1's CPU kernels make the plain form slow to train: the backward pass of {@code
 * broadcast_mul}, {@code broadcast_add} and the others sums the small operand's gradient with a
 * generic reduction (an index computation per element, on one thread), which made a small CNN's
 * training step 4x ({@code add}) to 15x ({@code mul}) slower (see {@code docs/custom-layers.md}).
 * The same arithmetic as a depthwise 1x1 {@code Convolution} (one group per element of the axis,
 * the full operand reshaped to {@code [N, axis, rest, 1]}) runs on oneDNN's convolution kernels,
 * forward and backward:
 *
 * <ul>
 *   <li>{@code x.mul(s)}, {@code s.mul(x)}: the convolution's weight is {@code s}, no bias;
 *   <li>{@code x.add(s)}, {@code s.add(x)}: the weight is ones ({@code ones_like}, which passes no
 *       gradient back) and the bias is {@code s};
 *   <li>{@code x.sub(s)}: as {@code add}, with the bias {@code -s}.
 * </ul>
 *
 * Each output element is one product or one sum either way, so the forward pass and the full
 * operand's gradient are exact; only the small operand's gradient, a sum, is added up in another
 * order. Anything else (both operands broadcast, {@code s.sub(x)}, {@code div}, an axis whose size
 * is BATCH, more than one unknown size) keeps MXNet's {@code broadcast_*}. The system property
 * {@code kiln.perAxisForm=false}, read when a graph is built, turns the fast form off (for
 * comparing the two).
 */
record PerAxisForm(String op, TracedSym full, TracedSym small, int axis, int[] as4d, int[] out) {
  /**
   * The fast form of {@code a <op> b} with result shape {@code out}, or null where none applies.
   */
  static PerAxisForm of(String op, TracedSym a, TracedSym b, int[] out) {
    if (!Boolean.parseBoolean(System.getProperty("kiln.perAxisForm", "true"))) {
      return null;
    }
    boolean commutes = op.equals("broadcast_mul") || op.equals("broadcast_add");
    if (!commutes && !op.equals("broadcast_sub")) {
      return null;
    }
    PerAxisForm left = plan(op, a, b, out);
    return left != null || !commutes ? left : plan(op, b, a, out);
  }

  private static PerAxisForm plan(String op, TracedSym full, TracedSym small, int[] out) {
    int[] f = full.shape().dims();
    int[] s = small.shape().dims();
    if (f.length != out.length || s.length > out.length) {
      return null;
    }
    int unknown = 0;
    for (int i = 0; i < out.length; i++) {
      if (f[i] != out[i]) {
        return null; // the full operand is broadcast too
      }
      if (out[i] < 0) {
        unknown++;
      }
    }
    int axis = -1;
    for (int i = 0; i < out.length; i++) {
      int j = i - (out.length - s.length);
      int size = j < 0 ? 1 : s[j];
      if (size == 1) {
        continue;
      }
      if (axis >= 0 || size != out[i] || size < 0) {
        return null; // a second varying axis, or one sized by BATCH
      }
      axis = i;
    }
    if (axis < 0 || unknown > 1 || out.length == 1) {
      return null; // nothing varies, or nothing is broadcast
    }
    long before = 1;
    long after = 1;
    for (int i = 0; i < out.length; i++) {
      if (i < axis) {
        before = out[i] < 0 || before < 0 ? -1 : before * out[i];
      } else if (i > axis) {
        if (out[i] < 0) {
          return null; // the rows after the axis must have a known length
        }
        after *= out[i];
      }
    }
    if (after > Integer.MAX_VALUE || before > Integer.MAX_VALUE) {
      return null;
    }
    int[] as4d = {(int) before, out[axis], (int) after, 1};
    return new PerAxisForm(op, full, small, axis, as4d, out);
  }

  /** The size of the axis along which the small operand varies: the convolution's groups. */
  int channels() {
    return out[axis];
  }

  /** Whether the full operand is already an image {@code [N, channels, h, w]}, as it stands. */
  boolean fullIsImage() {
    return out.length == 4 && axis == 1;
  }

  /** The MXNet {@code Reshape} shape that makes the full operand {@code [N, axis, rest, 1]}. */
  String shape4d() {
    return Attrs.tuple(as4d);
  }

  /** The MXNet {@code Reshape} shape of the result, {@code -1} for the one unknown size. */
  String outShape() {
    return Attrs.tuple(out);
  }
}
