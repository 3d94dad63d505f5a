package dev.kiln.processor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The shape rules of the layer library, each equal to the shape function of the MXNet 1.9.1
 * operator the layer emits ({@code src/operator/nn/convolution.cc}, {@code pooling.cc}, {@code
 * batch_norm.cc}, {@code layer_norm.cc}, {@code tensor/matrix_op-inl.h}, {@code
 * tensor/indexing_op.h}), plus the checks MXNet leaves to run time or does not make at all
 * (a reshape that changes the number of values). {@code BATCH} dimensions pass through as
 * unknown, as in MXNet's own inference.
 */
final class LayerRules {
  private LayerRules() {}

  static ShapeRules.Result infer(String where, NodeSpec node, ShapeRules.Source x)
      throws ShapeRules.RuleError {
    LayerSpec layer = node.layer();
    if (layer instanceof LayerSpec.Conv2D c) {
      return conv2d(where, node, c, x);
    }
    if (layer instanceof LayerSpec.Pool p) {
      return pool(where, p, x);
    }
    if (layer instanceof LayerSpec.GlobalAvgPool) {
      return globalPool(where, x);
    }
    if (layer instanceof LayerSpec.Reshape r) {
      return new ShapeRules.Result(reshape(where, r, x), List.of());
    }
    if (layer instanceof LayerSpec.Dropout) {
      return new ShapeRules.Result(x.shape(), List.of());
    }
    if (layer instanceof LayerSpec.BatchNorm b) {
      int c = channels(where, "@BatchNorm", b.axis(), x);
      return new ShapeRules.Result(x.shape(),
          List.of(param(node, "gamma", c), param(node, "beta", c)),
          List.of(param(node, "moving_mean", c), param(node, "moving_var", c)));
    }
    if (layer instanceof LayerSpec.LayerNorm l) {
      int c = channels(where, "@LayerNorm", l.axis(), x);
      return new ShapeRules.Result(x.shape(),
          List.of(param(node, "gamma", c), param(node, "beta", c)));
    }
    if (layer instanceof LayerSpec.Embedding e) {
      List<Integer> out = new ArrayList<>(x.shape().dims());
      out.add(e.outputDim());
      return new ShapeRules.Result(new TShape(out),
          List.of(new CheckedModel.ParamInfo(node.name() + "_weight", node.name(),
              TShape.of(e.inputDim(), e.outputDim()))));
    }
    throw new IllegalStateException("no shape rule for " + layer);
  }

  private static CheckedModel.ParamInfo param(NodeSpec node, String role, int size) {
    return new CheckedModel.ParamInfo(node.name() + "_" + role, node.name(), TShape.of(size));
  }

  /**
   * MXNet {@code ConvolutionShape} (2-D, NCHW): weight {@code [filters, C, kh, kw]}, bias {@code
   * [filters]}, output {@code [N, filters, H', W']} with {@code H' = (H + 2p - (d(k-1)+1)) / s +
   * 1} (integer division), and the dilated kernel must fit the padded input.
   */
  private static ShapeRules.Result conv2d(String where, NodeSpec node, LayerSpec.Conv2D c,
      ShapeRules.Source x) throws ShapeRules.RuleError {
    TShape s = x.shape();
    rank4(where, "@Conv2D", x);
    if (s.dim(1) < 0) {
      throw new ShapeRules.RuleError(Message.UNKNOWN_CHANNELS, null, where, "@Conv2D", 1,
          "its input channels", x.describe());
    }
    int[] k = LayerSpec.pair(c.kernel());
    int[] st = LayerSpec.pair(c.stride());
    int[] p = LayerSpec.pair(c.pad());
    int[] d = LayerSpec.pair(c.dilation());
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), c.filters()));
    for (int axis = 0; axis < 2; axis++) {
      int span = d[axis] * (k[axis] - 1) + 1;
      String how = d[axis] == 1 ? "kernel " + k[axis]
          : "kernel " + k[axis] + " dilated by " + d[axis];
      out.add(window(where, x, axis, span, how, st[axis], p[axis]));
    }
    List<CheckedModel.ParamInfo> params = new ArrayList<>();
    params.add(new CheckedModel.ParamInfo(node.name() + "_weight", node.name(),
        TShape.of(c.filters(), s.dim(1), k[0], k[1])));
    if (!c.noBias()) {
      params.add(new CheckedModel.ParamInfo(node.name() + "_bias", node.name(),
          TShape.of(c.filters())));
    }
    return new ShapeRules.Result(new TShape(out), params);
  }

  /**
   * MXNet {@code PoolingShape} (2-D, NCHW, {@code valid} convention): output {@code [N, C, H',
   * W']} with {@code H' = (H + 2p - k) / s + 1} (integer division); the kernel must fit the
   * padded input.
   */
  private static ShapeRules.Result pool(String where, LayerSpec.Pool p, ShapeRules.Source x)
      throws ShapeRules.RuleError {
    TShape s = x.shape();
    rank4(where, "@" + p.annotation(), x);
    int[] k = LayerSpec.pair(p.kernel());
    int[] st = p.effectiveStride();
    int[] pad = LayerSpec.pair(p.pad());
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    for (int axis = 0; axis < 2; axis++) {
      out.add(window(where, x, axis, k[axis], "kernel " + k[axis], st[axis], pad[axis]));
    }
    return new ShapeRules.Result(new TShape(out), List.of());
  }

  /** One spatial output size, or BATCH when the input size is BATCH. */
  private static int window(String where, ShapeRules.Source x, int axis, int span, String how,
      int stride, int pad) throws ShapeRules.RuleError {
    int in = x.shape().dim(2 + axis);
    if (in < 0) {
      return TShape.BATCH;
    }
    int padded = in + 2 * pad;
    if (span > padded) {
      throw new ShapeRules.RuleError(Message.KERNEL_TOO_LARGE, "kernel", where, span,
          axis == 0 ? "height" : "width", how, in, padded, x.describe());
    }
    return (padded - span) / stride + 1;
  }

  /**
   * MXNet {@code PoolingShape} with {@code global_pool} (channels first): rank 3 to 5, every
   * dimension after the channels becomes 1.
   */
  private static ShapeRules.Result globalPool(String where, ShapeRules.Source x)
      throws ShapeRules.RuleError {
    TShape s = x.shape();
    if (s.rank() < 3 || s.rank() > 5) {
      throw new ShapeRules.RuleError(Message.WRONG_RANK, null, where, "@GlobalAvgPool",
          "3 to 5", "[N, C, ...]", x.describe(), "");
    }
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    out.addAll(Collections.nCopies(s.rank() - 2, 1));
    return new ShapeRules.Result(new TShape(out), List.of());
  }

  private static void rank4(String where, String layer, ShapeRules.Source x)
      throws ShapeRules.RuleError {
    TShape s = x.shape();
    if (s.rank() == 4) {
      return;
    }
    String hint = "";
    if (s.rank() == 2 && s.dim(1) > 0) {
      int side = (int) Math.round(Math.sqrt(s.dim(1)));
      hint = side * side == s.dim(1)
          ? "; to read each row as a " + side + "x" + side + " image, reshape it first: "
              + "@Reshape(shape = {BATCH, 1, " + side + ", " + side + "})"
          : "; reshape it first, e.g. @Reshape(shape = {BATCH, C, H, W})";
    }
    throw new ShapeRules.RuleError(Message.WRONG_RANK, null, where, layer, "4", "[N, C, H, W]",
        x.describe(), hint);
  }

  /**
   * The size of the normalised axis, which shapes gamma and beta (MXNet {@code
   * BatchNormShape}, {@code LayerNormShape}): the axis must exist and its size be known.
   */
  private static int channels(String where, String layer, int axis, ShapeRules.Source x)
      throws ShapeRules.RuleError {
    int a = ShapeRules.checkAxis(where, axis, x);
    int c = x.shape().dim(a);
    if (c < 0) {
      throw new ShapeRules.RuleError(Message.UNKNOWN_CHANNELS, "axis", where, layer, a,
          "the normalised axis", x.describe());
    }
    return c;
  }

  /**
   * A dimension's size as a product of a known factor and the input's BATCH dimensions, each an
   * independent unknown: {@code 784}, {@code BATCH}, {@code 2 × BATCH}.
   */
  private record Size(long factor, List<Integer> batches) {
    Size {
      batches = batches.stream().sorted().toList();
    }

    static Size known(long n) {
      return new Size(n, List.of());
    }

    Size times(Size o) {
      List<Integer> b = new ArrayList<>(batches);
      b.addAll(o.batches);
      return new Size(factor * o.factor, b);
    }

    /** {@code this / o} when it is a whole size for every batch size, else null. */
    Size dividedBy(Size o) {
      List<Integer> b = new ArrayList<>(batches);
      for (int i : o.batches) {
        if (!b.remove(Integer.valueOf(i))) {
          return null;
        }
      }
      if (o.factor == 0 || factor % o.factor != 0) {
        return null;
      }
      return new Size(factor / o.factor, b);
    }

    int toDim() {
      if (!batches.isEmpty()) {
        return TShape.BATCH;
      }
      return factor > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) factor;
    }

    @Override
    public String toString() {
      List<String> parts = new ArrayList<>();
      if (factor != 1 || batches.isEmpty()) {
        parts.add(Long.toString(factor));
      }
      batches.forEach(b -> parts.add("BATCH"));
      return String.join(" × ", parts);
    }
  }

  /**
   * MXNet {@code InferReshapeShape} (read left to right, {@code reverse = false}), made exact:
   * every BATCH input dimension is its own unknown, and the reshape must keep the number of
   * values for every batch size, because MXNet 1.9.1 does not check it (a mismatched reshape
   * overruns its output at run time).
   */
  private static TShape reshape(String where, LayerSpec.Reshape r, ShapeRules.Source x)
      throws ShapeRules.RuleError {
    TShape s = x.shape();
    List<Size> in = new ArrayList<>();
    for (int i = 0; i < s.rank(); i++) {
      in.add(s.dim(i) < 0 ? new Size(1, List.of(i)) : Size.known(s.dim(i)));
    }
    List<Integer> spec = r.shape();
    List<Size> out = new ArrayList<>();
    int src = 0;
    int inferAt = -1;
    for (int i = 0; i < spec.size(); i++) {
      int v = spec.get(i);
      if (v > 0) {
        out.add(Size.known(v));
        src++;
      } else if (v == 0) {
        if (src >= in.size()) {
          throw bad(where, r, x, "COPY (0) at position " + i + " has no input dimension "
              + src + " to copy");
        }
        out.add(in.get(src++));
      } else if (v == -1) {
        inferAt = out.size();
        out.add(null);
        src++;
      } else if (v == -2) {
        while (src < in.size()) {
          out.add(in.get(src++));
        }
      } else if (v == -3) {
        if (src + 1 >= in.size()) {
          throw bad(where, r, x, "MERGE (-3) at position " + i + " needs input dimensions "
              + src + " and " + (src + 1));
        }
        out.add(in.get(src).times(in.get(src + 1)));
        src += 2;
      } else {
        if (src >= in.size()) {
          throw bad(where, r, x, "SPLIT (-4) at position " + i + " has no input dimension "
              + src + " to split");
        }
        Size whole = in.get(src++);
        int a = spec.get(++i);
        int b = spec.get(++i);
        Size left;
        Size right;
        if (a == -1 || b == -1) {
          Size part = Size.known(a == -1 ? b : a);
          Size rest = whole.dividedBy(part);
          if (rest == null) {
            throw bad(where, r, x, "SPLIT (-4) cannot split dimension " + (src - 1) + " of size "
                + whole + " into parts of " + part);
          }
          left = a == -1 ? rest : part;
          right = a == -1 ? part : rest;
        } else {
          left = Size.known(a);
          right = Size.known(b);
          if (!left.times(right).equals(whole)) {
            throw bad(where, r, x, "SPLIT (-4) cannot split dimension " + (src - 1) + " of size "
                + whole + " into " + a + " × " + b);
          }
        }
        out.add(left);
        out.add(right);
      }
    }
    Size total = product(in);
    if (inferAt >= 0) {
      List<Size> others = new ArrayList<>(out);
      others.remove(inferAt);
      Size rest = total.dividedBy(product(others));
      if (rest == null) {
        throw bad(where, r, x, "the input has " + total + " values, which the other "
            + "dimensions (" + product(others) + " values) do not divide for every batch size");
      }
      out.set(inferAt, rest);
    } else if (!product(out).equals(total)) {
      throw bad(where, r, x, "the input has " + total + " values but the target has "
          + product(out) + "; a reshape must keep the number of values for every batch size");
    }
    return new TShape(out.stream().map(Size::toDim).toList());
  }

  private static Size product(List<Size> sizes) {
    Size p = Size.known(1);
    for (Size z : sizes) {
      p = p.times(z);
    }
    return p;
  }

  private static ShapeRules.RuleError bad(String where, LayerSpec.Reshape r, ShapeRules.Source x,
      String reason) {
    return new ShapeRules.RuleError(Message.BAD_RESHAPE, "shape", where,
        LayerAttributes.render(r.shape()), reason + " (input " + x.describe() + ")");
  }
}
