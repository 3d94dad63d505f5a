package dev.kiln.onnx;

import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.RnnLayout.Gate;
import java.util.List;

/**
 * ONNX's recurrent weights in MXNet's fused layout: the one conversion both the import (which sizes
 * the vector) and {@code loadImported} (which fills it) use. ONNX holds {@code W [dirs,
 * gates·units, in]}, {@code R [dirs, gates·units, units]} and {@code B [dirs, 2·gates·units]} (the
 * input biases, then the recurrent ones), gates stacked as {@code i, o, f, c} (LSTM) and {@code z,
 * r, h} (GRU); MXNet holds one vector, {@link RnnLayout}'s, gates {@code i, f, g, o} and {@code r,
 * z, n}.
 *
 * @param layout the fused vector's layout (one layer)
 * @param w the initializer of the input weights {@code W}
 * @param r the initializer of the recurrent weights {@code R}
 * @param b the initializer of the biases {@code B}, or null for none (zeros)
 */
public record OnnxRecurrent(RnnLayout layout, String w, String r, String b) {
  /** ONNX's gate order, for the layout's mode. */
  static List<Gate> onnxGates(RnnLayout.Mode mode) {
    return switch (mode) {
      case LSTM -> List.of(Gate.INPUT, Gate.OUTPUT, Gate.FORGET, Gate.CELL);
      case GRU -> List.of(Gate.UPDATE, Gate.RESET, Gate.NEW);
      case RNN_TANH, RNN_RELU -> List.of(Gate.HIDDEN);
    };
  }

  /**
   * The flat vector of {@code w}, {@code r} and {@code b} (null for zeros), each row-major as ONNX
   * holds them.
   *
   * @throws IllegalArgumentException when a tensor holds another number of values than the layout
   *     needs
   */
  public float[] flatten(float[] wv, float[] rv, float[] bv) {
    int dirs = layout.directions();
    int units = layout.units();
    int gates = layout.gates();
    int in = layout.inputSize();
    check("W", wv, (long) dirs * gates * units * in);
    check("R", rv, (long) dirs * gates * units * units);
    if (bv != null) {
      check("B", bv, 2L * dirs * gates * units);
    }
    List<Gate> order = onnxGates(layout.mode());
    float[] out = new float[Math.toIntExact(layout.size())];
    for (RnnLayout.Block block : layout.blocks()) {
      int d = block.direction();
      int g = order.indexOf(block.gate());
      boolean input = block.part() == RnnLayout.Part.INPUT_TO_HIDDEN;
      int n = Math.toIntExact(block.size());
      if (block.bias()) {
        if (bv == null) {
          continue;
        }
        int from = (d * 2 + (input ? 0 : 1)) * gates * units + g * units;
        System.arraycopy(bv, from, out, Math.toIntExact(block.offset()), n);
      } else {
        int cols = input ? in : units;
        int from = (d * gates + g) * units * cols;
        System.arraycopy(input ? wv : rv, from, out, Math.toIntExact(block.offset()), n);
      }
    }
    return out;
  }

  private static void check(String what, float[] v, long want) {
    if (v.length != want) {
      throw new IllegalArgumentException(
          what + " holds " + v.length + " values, the recurrent layer needs " + want);
    }
  }
}
