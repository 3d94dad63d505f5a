package dev.kiln.runtime;

import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.RnnLayout.Gate;
import dev.kiln.ops.RnnLayout.Part;

/**
 * A plain-Java forward pass of a fused recurrent layer, computed in double from the flat vector as
 * {@link RnnLayout} documents it (all weights, then all biases; layer, direction, input-to- hidden
 * before hidden-to-hidden; LSTM gates i, f, g, o and GRU gates r, z, n with the reset gate applied
 * to {@code W_hn h + b_hn}). Tests compare MXNet's outputs and final states with it, which pins the
 * layout and the gate order.
 */
public final class RecurrentReference {
  /** Every step's output {@code [N][T][dirs·units]} and the final states {@code [L·D][N][H]}. */
  public record Result(double[][][] output, double[][][] hidden, double[][][] cell) {}

  private final RnnLayout layout;
  private final float[] w;

  /** A reference over {@code parameters} laid out as {@code layout}. */
  public RecurrentReference(RnnLayout layout, float[] parameters) {
    if (parameters.length != layout.size()) {
      throw new IllegalArgumentException(
          "expected " + layout.size() + " values, got " + parameters.length);
    }
    this.layout = layout;
    this.w = parameters;
  }

  /**
   * Runs the layer over {@code x} ({@code [N][T][in]}) from the states {@code h0} and {@code c0}
   * ({@code [L·D][N][H]}; null for zeros).
   */
  public Result run(double[][][] x, double[][][] h0, double[][][] c0) {
    int n = x.length;
    int steps = x[0].length;
    int units = layout.units();
    int dirs = layout.directions();
    double[][][] in = x;
    double[][][] hidden = new double[layout.layers() * dirs][n][units];
    double[][][] cell = new double[layout.layers() * dirs][n][units];
    for (int l = 0; l < layout.layers(); l++) {
      double[][][] out = new double[n][steps][dirs * units];
      for (int d = 0; d < dirs; d++) {
        int row = l * dirs + d;
        for (int b = 0; b < n; b++) {
          double[] h = h0 == null ? new double[units] : h0[row][b].clone();
          double[] c = c0 == null ? new double[units] : c0[row][b].clone();
          for (int k = 0; k < steps; k++) {
            int t = d == 0 ? k : steps - 1 - k;
            double[][] next = step(l, d, in[b][t], h, c);
            h = next[0];
            c = next[1];
            System.arraycopy(h, 0, out[b][t], d * units, units);
          }
          hidden[row][b] = h;
          cell[row][b] = c;
        }
      }
      in = out;
    }
    return new Result(in, hidden, cell);
  }

  private double[][] step(int l, int d, double[] x, double[] h, double[] c) {
    int units = layout.units();
    double[] nh = new double[units];
    double[] nc = c.clone();
    switch (layout.mode()) {
      case RNN_TANH, RNN_RELU -> {
        double[] a = affine(l, d, Gate.HIDDEN, x, h);
        for (int u = 0; u < units; u++) {
          nh[u] = layout.mode() == RnnLayout.Mode.RNN_TANH ? Math.tanh(a[u]) : Math.max(0, a[u]);
        }
      }
      case LSTM -> {
        double[] i = affine(l, d, Gate.INPUT, x, h);
        double[] f = affine(l, d, Gate.FORGET, x, h);
        double[] g = affine(l, d, Gate.CELL, x, h);
        double[] o = affine(l, d, Gate.OUTPUT, x, h);
        for (int u = 0; u < units; u++) {
          nc[u] = sigmoid(f[u]) * c[u] + sigmoid(i[u]) * Math.tanh(g[u]);
          nh[u] = sigmoid(o[u]) * Math.tanh(nc[u]);
        }
      }
      case GRU -> {
        double[] r = affine(l, d, Gate.RESET, x, h);
        double[] z = affine(l, d, Gate.UPDATE, x, h);
        double[] nx = part(l, d, Part.INPUT_TO_HIDDEN, Gate.NEW, x);
        double[] nhh = part(l, d, Part.HIDDEN_TO_HIDDEN, Gate.NEW, h);
        for (int u = 0; u < units; u++) {
          double n = Math.tanh(nx[u] + sigmoid(r[u]) * nhh[u]);
          double zu = sigmoid(z[u]);
          nh[u] = (1 - zu) * n + zu * h[u];
        }
      }
      default -> throw new IllegalStateException(layout.mode().toString());
    }
    return new double[][] {nh, nc};
  }

  /** {@code W_x x + b_x + W_h h + b_h} for one gate. */
  private double[] affine(int l, int d, Gate gate, double[] x, double[] h) {
    double[] a = part(l, d, Part.INPUT_TO_HIDDEN, gate, x);
    double[] b = part(l, d, Part.HIDDEN_TO_HIDDEN, gate, h);
    for (int u = 0; u < a.length; u++) {
      a[u] += b[u];
    }
    return a;
  }

  /** {@code W v + b} of one gate of one part. */
  private double[] part(int l, int d, Part part, Gate gate, double[] v) {
    RnnLayout.Block m = layout.block(l, d, part, gate, false);
    RnnLayout.Block bias = layout.block(l, d, part, gate, true);
    int units = layout.units();
    int cols = m.shape().dim(1);
    double[] out = new double[units];
    for (int u = 0; u < units; u++) {
      double s = w[(int) bias.offset() + u];
      for (int j = 0; j < cols; j++) {
        s += w[(int) m.offset() + u * cols + j] * v[j];
      }
      out[u] = s;
    }
    return out;
  }

  private static double sigmoid(double v) {
    return 1 / (1 + Math.exp(-v));
  }
}
