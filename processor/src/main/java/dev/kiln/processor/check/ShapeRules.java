package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.LayerSpec;
import dev.kiln.processor.model.NodeSpec;
import dev.kiln.processor.model.ParamInfo;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The compile-time shape rule of every layer, each equal to the shape function of the MXNet 1.9.1
 * operator the layer emits ({@code src/operator/nn/fully_connected.cc}, {@code convolution.cc},
 * {@code pooling.cc}, {@code batch_norm.cc}, {@code layer_norm.cc}, {@code tensor/matrix_op-inl.h},
 * {@code tensor/indexing_op.h}, ...), plus the checks MXNet leaves to run time or does not make at
 * all (a reshape that changes the number of values). A rule returns the node's output shape, the
 * parameters it creates and its auxiliary states, or throws a {@link RuleError}. {@code BATCH}
 * dimensions pass through as unknown, as they do in MXNet's own inference.
 */
final class ShapeRules implements LayerSpec.Visitor<ShapeRules.Result> {
  /**
   * A node's inferred output shape, the parameters it creates and its auxiliary states.
   *
   * @param shape the output shape
   * @param params the learnable parameters, in the order the layer makes them
   * @param aux the auxiliary states
   */
  record Result(TShape shape, List<ParamInfo> params, List<ParamInfo> aux) {
    /** A result without parameters. */
    static Result of(TShape shape) {
      return new Result(shape, List.of(), List.of());
    }
  }

  private final String where;
  private final NodeSpec node;
  private final List<Source> in;

  private ShapeRules(String where, NodeSpec node, List<Source> in) {
    this.where = where;
    this.node = node;
    this.in = in;
  }

  /**
   * The rule of {@code node}'s layer applied to its inputs {@code in}; {@code where} names the node
   * in messages.
   *
   * @throws RuleError when the inputs break the rule
   */
  static Result infer(String where, NodeSpec node, List<Source> in) {
    return node.layer().accept(new ShapeRules(where, node, in));
  }

  private Source x() {
    return in.get(0);
  }

  @Override
  public Result visitInput(LayerSpec.Input i) {
    return Result.of(i.shape());
  }

  /**
   * MXNet {@code FullyConnectedShape}: with {@code flatten} the input is {@code [N, rest...]} read
   * as {@code [N, prod(rest)]} and the output is {@code [N, units]}; without, the last dimension is
   * replaced by {@code units}. Weight {@code [units, in]}, bias {@code [units]}.
   */
  @Override
  public Result visitDense(LayerSpec.Dense d) {
    TShape s = x().shape();
    int features = d.flatten() ? s.product(1) : s.dim(s.rank() - 1);
    if (features < 0) {
      throw new RuleError(Message.UNKNOWN_FEATURES, null, where, s, x().node().name());
    }
    List<Integer> out = new ArrayList<>();
    if (d.flatten()) {
      out.add(s.dim(0));
    } else {
      out.addAll(s.dims().subList(0, s.rank() - 1));
    }
    out.add(d.units());
    List<ParamInfo> params = new ArrayList<>();
    params.add(param("weight", TShape.of(d.units(), features)));
    if (!d.noBias()) {
      params.add(param("bias", TShape.of(d.units())));
    }
    return new Result(new TShape(out), params, List.of());
  }

  /** MXNet {@code Activation}: element-wise, the input's shape. */
  @Override
  public Result visitActivation(LayerSpec.Activation a) {
    return Result.of(x().shape());
  }

  /** MXNet {@code softmax}: the input's shape, along an axis the input has. */
  @Override
  public Result visitSoftmax(LayerSpec.Softmax s) {
    axis(s.axis(), x());
    return Result.of(x().shape());
  }

  /** MXNet {@code FlattenShape}: {@code [d0, prod(d1...)]}. */
  @Override
  public Result visitFlatten(LayerSpec.Flatten f) {
    TShape s = x().shape();
    return Result.of(TShape.of(s.dim(0), s.rank() == 1 ? 1 : s.product(1)));
  }

  /** MXNet {@code elemwise_add} and {@code add_n}: every input has the same shape. */
  @Override
  public Result visitAdd(LayerSpec.Add a) {
    TShape first = x().shape();
    for (Source s : in) {
      if (!s.shape().equals(first)) {
        throw new RuleError(
            Message.SHAPE_MISMATCH, null, where, "@Add", Source.describeAll(in), fitHint(x(), s));
      }
    }
    return Result.of(first);
  }

  /**
   * How to give {@code odd} the shape of {@code target}: reshape it when it holds as many values
   * per example, project it with a dense layer onto {@code [BATCH, n]}, or else change the layers
   * that make it.
   */
  private static String fitHint(Source target, Source odd) {
    TShape t = target.shape();
    TShape o = odd.shape();
    String name = odd.node().name();
    boolean batchFirst =
        t.rank() > 0
            && o.rank() > 0
            && t.dim(0) == TShape.BATCH
            && o.dim(0) == TShape.BATCH
            && t.product(1) > 0
            && o.product(1) > 0;
    if (batchFirst && t.product(1) == o.product(1)) {
      return "reshape "
          + name
          + " to "
          + t
          + " first, with a node @Reshape(shape = {"
          + t.asArguments()
          + "}) that reads "
          + name
          + ", and add that node instead";
    }
    if (batchFirst && t.rank() == 2) {
      return "project "
          + name
          + " to "
          + t
          + " first, with a node @Dense(units = "
          + t.dim(1)
          + ") that reads "
          + name
          + ", and add that node instead";
    }
    return "give every input the shape of "
        + target.node().name()
        + ", "
        + t
        + ", e.g. by "
        + "changing the layers that make "
        + name;
  }

  /**
   * MXNet {@code ConcatShape}: equal rank, equal dimensions except along {@code axis}, where the
   * sizes add up (unknown if any is BATCH).
   */
  @Override
  public Result visitConcat(LayerSpec.Concat c) {
    TShape first = x().shape();
    for (Source s : in) {
      if (s.shape().rank() != first.rank()) {
        throw new RuleError(Message.RANK_MISMATCH, null, where, "@Concat", Source.describeAll(in));
      }
    }
    int axis = axis(c.axis(), x());
    List<Integer> out = new ArrayList<>(first.dims());
    int sum = 0;
    for (Source s : in) {
      for (int i = 0; i < first.rank(); i++) {
        if (i != axis && s.shape().dim(i) != first.dim(i)) {
          throw new RuleError(
              Message.CONCAT_MISMATCH, null, where, c.axis(), axis, Source.describeAll(in));
        }
      }
      int d = s.shape().dim(axis);
      sum = sum < 0 || d < 0 ? TShape.BATCH : sum + d;
    }
    out.set(axis, sum);
    return Result.of(new TShape(out));
  }

  /**
   * MXNet {@code ConvolutionShape} (2-D, NCHW): weight {@code [filters, C, kh, kw]}, bias {@code
   * [filters]}, output {@code [N, filters, H', W']} with {@code H' = (H + 2p - (d(k-1)+1)) / s + 1}
   * (integer division), and the dilated kernel must fit the padded input.
   */
  @Override
  public Result visitConv2D(LayerSpec.Conv2D c) {
    TShape s = x().shape();
    rank4("@Conv2D");
    if (s.dim(1) < 0) {
      throw new RuleError(
          Message.UNKNOWN_CHANNELS,
          null,
          where,
          "@Conv2D",
          1,
          "its input channels",
          x().describe());
    }
    int[] k = LayerSpec.pair(c.kernel());
    int[] st = LayerSpec.pair(c.stride());
    int[] p = LayerSpec.pair(c.pad());
    int[] d = LayerSpec.pair(c.dilation());
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), c.filters()));
    for (int axis = 0; axis < 2; axis++) {
      int span = d[axis] * (k[axis] - 1) + 1;
      String how =
          d[axis] == 1 ? "kernel " + k[axis] : "kernel " + k[axis] + " dilated by " + d[axis];
      out.add(window(axis, span, how, st[axis], p[axis]));
    }
    List<ParamInfo> params = new ArrayList<>();
    params.add(param("weight", TShape.of(c.filters(), s.dim(1), k[0], k[1])));
    if (!c.noBias()) {
      params.add(param("bias", TShape.of(c.filters())));
    }
    return new Result(new TShape(out), params, List.of());
  }

  /**
   * MXNet {@code PoolingShape} (2-D, NCHW, {@code valid} convention): output {@code [N, C, H', W']}
   * with {@code H' = (H + 2p - k) / s + 1} (integer division); the kernel must fit the padded
   * input.
   */
  @Override
  public Result visitPool(LayerSpec.Pool p) {
    TShape s = x().shape();
    rank4("@" + p.annotation());
    int[] k = LayerSpec.pair(p.kernel());
    int[] st = p.effectiveStride();
    int[] pad = LayerSpec.pair(p.pad());
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    for (int axis = 0; axis < 2; axis++) {
      out.add(window(axis, k[axis], "kernel " + k[axis], st[axis], pad[axis]));
    }
    return Result.of(new TShape(out));
  }

  /**
   * MXNet {@code PoolingShape} with {@code global_pool} (channels first): rank 3 to 5, every
   * dimension after the channels becomes 1.
   */
  @Override
  public Result visitGlobalAvgPool(LayerSpec.GlobalAvgPool g) {
    TShape s = x().shape();
    if (s.rank() < 3 || s.rank() > 5) {
      throw new RuleError(
          Message.WRONG_RANK,
          null,
          where,
          "@GlobalAvgPool",
          "3 to 5",
          "[N, C, ...]",
          x().describe(),
          "");
    }
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    out.addAll(Collections.nCopies(s.rank() - 2, 1));
    return Result.of(new TShape(out));
  }

  /**
   * MXNet {@code InferReshapeShape} (read left to right, {@code reverse = false}), made exact:
   * every BATCH input dimension is its own unknown, and the reshape must keep the number of values
   * for every batch size, because MXNet 1.9.1 does not check it (a mismatched reshape overruns its
   * output at run time).
   */
  @Override
  public Result visitReshape(LayerSpec.Reshape r) {
    TShape s = x().shape();
    List<Size> sizes = new ArrayList<>();
    for (int i = 0; i < s.rank(); i++) {
      sizes.add(s.dim(i) < 0 ? new Size(1, List.of(i)) : Size.known(s.dim(i)));
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
        if (src >= sizes.size()) {
          throw badReshape(
              r, "COPY (0) at position " + i + " has no input dimension " + src + " to copy");
        }
        out.add(sizes.get(src++));
      } else if (v == -1) {
        inferAt = out.size();
        out.add(null);
        src++;
      } else if (v == -2) {
        while (src < sizes.size()) {
          out.add(sizes.get(src++));
        }
      } else if (v == -3) {
        if (src + 1 >= sizes.size()) {
          throw badReshape(
              r,
              "MERGE (-3) at position "
                  + i
                  + " needs input dimensions "
                  + src
                  + " and "
                  + (src + 1));
        }
        out.add(sizes.get(src).times(sizes.get(src + 1)));
        src += 2;
      } else {
        if (src >= sizes.size()) {
          throw badReshape(
              r, "SPLIT (-4) at position " + i + " has no input dimension " + src + " to split");
        }
        Size whole = sizes.get(src++);
        int a = spec.get(++i);
        int b = spec.get(++i);
        Size left;
        Size right;
        if (a == -1 || b == -1) {
          Size part = Size.known(a == -1 ? b : a);
          Size rest = whole.dividedBy(part);
          if (rest == null) {
            throw badReshape(
                r,
                "SPLIT (-4) cannot split dimension "
                    + (src - 1)
                    + " of size "
                    + whole
                    + " into parts of "
                    + part);
          }
          left = a == -1 ? rest : part;
          right = a == -1 ? part : rest;
        } else {
          left = Size.known(a);
          right = Size.known(b);
          if (!left.times(right).equals(whole)) {
            throw badReshape(
                r,
                "SPLIT (-4) cannot split dimension "
                    + (src - 1)
                    + " of size "
                    + whole
                    + " into "
                    + a
                    + " × "
                    + b);
          }
        }
        out.add(left);
        out.add(right);
      }
    }
    Size total = Size.product(sizes);
    if (inferAt >= 0) {
      List<Size> others = new ArrayList<>(out);
      others.remove(inferAt);
      Size rest = total.dividedBy(Size.product(others));
      if (rest == null) {
        throw badReshape(
            r,
            "the input has "
                + total
                + " values, which the other dimensions ("
                + Size.product(others)
                + " values) do not divide for every batch size");
      }
      out.set(inferAt, rest);
    } else if (!Size.product(out).equals(total)) {
      throw badReshape(
          r,
          "the input has "
              + total
              + " values but the target has "
              + Size.product(out)
              + "; a reshape must keep the number of values for every batch "
              + "size");
    }
    return Result.of(new TShape(out.stream().map(Size::toDim).toList()));
  }

  /** MXNet {@code Dropout}: the input's shape. */
  @Override
  public Result visitDropout(LayerSpec.Dropout d) {
    return Result.of(x().shape());
  }

  /**
   * MXNet {@code BatchNormShape}: the input's shape; gamma and beta and the moving averages are
   * {@code [C]} for the size C of the channel axis.
   */
  @Override
  public Result visitBatchNorm(LayerSpec.BatchNorm b) {
    int c = channels("@BatchNorm", b.axis());
    return new Result(
        x().shape(),
        List.of(param("gamma", TShape.of(c)), param("beta", TShape.of(c))),
        List.of(param("moving_mean", TShape.of(c)), param("moving_var", TShape.of(c))));
  }

  /** MXNet {@code LayerNormShape}: the input's shape; gamma and beta {@code [C]} of the axis. */
  @Override
  public Result visitLayerNorm(LayerSpec.LayerNorm l) {
    int c = channels("@LayerNorm", l.axis());
    return new Result(
        x().shape(), List.of(param("gamma", TShape.of(c)), param("beta", TShape.of(c))), List.of());
  }

  /**
   * MXNet {@code EmbeddingOpShape}: one vector of {@code outputDim} per index, weight {@code
   * [inputDim, outputDim]}.
   */
  @Override
  public Result visitEmbedding(LayerSpec.Embedding e) {
    List<Integer> out = new ArrayList<>(x().shape().dims());
    out.add(e.outputDim());
    return new Result(
        new TShape(out),
        List.of(param("weight", TShape.of(e.inputDim(), e.outputDim()))),
        List.of());
  }

  /**
   * MXNet {@code RNNShape} behind Kiln's batch-first wrapper: a rank-3 input {@code [N, T,
   * features]} (swapped to MXNet's time-major {@code [T, N, features]}), output {@code [N, T,
   * units·dirs]} or, with {@code returnSequences} off, {@code [N, units·dirs]}; one flat parameter
   * vector {@code <node>_parameters} of {@code GetRnnParamSize} values.
   */
  @Override
  public Result visitRecurrent(LayerSpec.Recurrent r) {
    TShape s = x().shape();
    String layer = "@" + r.annotation();
    if (s.rank() != 3) {
      String hint = "";
      if (s.rank() == 2 && s.dim(1) > 0) {
        int side = (int) Math.round(Math.sqrt(s.dim(1)));
        hint =
            side * side == s.dim(1)
                ? "; to read each row as "
                    + side
                    + " steps of "
                    + side
                    + " features, reshape it "
                    + "first: @Reshape(shape = {BATCH, "
                    + side
                    + ", "
                    + side
                    + "})"
                : "; reshape it first, e.g. @Reshape(shape = {BATCH, steps, features})";
      }
      throw new RuleError(
          Message.WRONG_RANK,
          null,
          where,
          layer,
          "3",
          "[BATCH, steps, features]",
          x().describe(),
          hint);
    }
    if (s.dim(0) == TShape.STEPS || s.dim(1) == TShape.BATCH) {
      throw new RuleError(
          Message.SEQUENCE_LAYOUT,
          null,
          where,
          layer,
          x().describe(),
          "BATCH comes first (Kiln swaps to MXNet's time-major layout itself); declare the input "
              + "as {BATCH, STEPS, "
              + s.asArguments().substring(s.asArguments().lastIndexOf(' ') + 1)
              + "}");
    }
    if (s.dim(2) < 0) {
      throw new RuleError(
          Message.SEQUENCE_LAYOUT,
          null,
          where,
          layer,
          x().describe(),
          "the features (the last dimension) must be known at compile time to shape the "
              + "parameters");
    }
    int width = r.units() * r.directions();
    TShape out =
        r.returnSequences() ? TShape.of(s.dim(0), s.dim(1), width) : TShape.of(s.dim(0), width);
    long size = r.parameters(s.dim(2));
    if (size > Integer.MAX_VALUE) {
      throw new RuleError(
          Message.OUT_OF_RANGE,
          "units",
          where + " " + node.annotationText(),
          "the parameter count",
          "at most " + Integer.MAX_VALUE,
          size);
    }
    return new Result(out, List.of(param("parameters", TShape.of((int) size))), List.of());
  }

  /**
   * A custom layer's contract: the input must match the layer's input pattern (numbers exactly,
   * each name consistently, names that are layer elements to their written values); the output and
   * parameter shapes are the patterns with every name replaced by its value. The body itself is
   * traced and checked against the output pattern when the graph is built.
   *
   * <p>A recurrent cell's input pattern is one step's: the node reads that pattern with the steps,
   * a constant or {@code STEPS}, inserted after its first dimension, and its output is the state
   * pattern with the same steps inserted, every step's state.
   */
  @Override
  public Result visitCustom(LayerSpec.Custom c) {
    List<String> tokens = new ArrayList<>(c.input());
    if (c.cell()) {
      tokens.add(Math.min(1, tokens.size()), "steps");
    }
    String pattern = "[" + String.join(", ", tokens) + "]";
    TShape s = x().shape();
    if (s.rank() != tokens.size()) {
      throw new RuleError(
          Message.CUSTOM_INPUT,
          null,
          where,
          c.layerName(),
          pattern,
          x().describe(),
          "the ranks differ"
              + (c.cell()
                  ? "; a cell reads a sequence, one "
                      + "step of ["
                      + String.join(", ", c.input())
                      + "] at a time, with the steps after "
                      + "the first dimension"
                  : ""));
    }
    if (c.cell()) {
      checkCellSteps(c, s);
    }
    Map<String, Integer> bound = new LinkedHashMap<>(c.dims());
    for (int i = 0; i < s.rank(); i++) {
      if (c.cell() && i == 1) {
        continue;
      }
      String t = tokens.get(i);
      int actual = s.dim(i);
      Integer want = Character.isDigit(t.charAt(0)) ? Integer.valueOf(t) : bound.get(t);
      if (want == null) {
        bound.put(t, actual);
      } else if (want != actual) {
        throw new RuleError(
            Message.CUSTOM_INPUT,
            null,
            where,
            c.layerName(),
            pattern,
            x().describe(),
            "dimension " + i + " ('" + t + "') must be " + (want < 0 ? "BATCH" : want.toString()));
      }
    }
    TShape out;
    if (c.cell()) {
      List<Integer> states = new ArrayList<>(resolve(c, c.state(), "its state", bound).dims());
      states.add(Math.min(1, states.size()), s.dim(1));
      out = new TShape(states);
    } else {
      out = resolve(c, c.output(), "its output", bound);
    }
    List<ParamInfo> params = new ArrayList<>();
    for (LayerSpec.CustomParam p : c.params()) {
      TShape shape = resolve(c, p.shape(), "parameter " + p.name(), bound);
      if (shape.hasBatch()) {
        throw new RuleError(
            Message.CUSTOM_PARAM_BATCH, null, where, p.name(), c.layerName(), shape);
      }
      params.add(param(p.role(), shape));
    }
    return new Result(out, params, List.of());
  }

  /**
   * A cell's steps must be a constant or {@code STEPS}, the executor's bound length, and no other
   * dimension may be {@code STEPS}: one step's input, the state and the parameters are shaped
   * without the steps. A {@code BATCH} there is a length no input gives directly (a reshape or a
   * concatenation of sequences makes one), which no graph could be unrolled for.
   */
  private void checkCellSteps(LayerSpec.Custom c, TShape s) {
    if (s.dim(1) == TShape.BATCH) {
      throw new RuleError(
          Message.CELL_STEPS,
          null,
          where,
          c.layerName(),
          x().describe(),
          "its steps (dimension 1) are BATCH, a size that is not an input's Dim.STEPS (joining "
              + "or reshaping sequences gives one), so no number of steps to unroll over is "
              + "known");
    }
    for (int i = 0; i < s.rank(); i++) {
      if (i != 1 && s.dim(i) == TShape.STEPS) {
        throw new RuleError(
            Message.CELL_STEPS,
            null,
            where,
            c.layerName(),
            x().describe(),
            "dimension "
                + i
                + " is Dim.STEPS, so one step's input would depend on the number "
                + "of steps");
      }
    }
  }

  private TShape resolve(
      LayerSpec.Custom c, List<String> pattern, String what, Map<String, Integer> bound) {
    List<Integer> dims = new ArrayList<>();
    for (String t : pattern) {
      if (Character.isDigit(t.charAt(0))) {
        dims.add(Integer.valueOf(t));
      } else if (bound.containsKey(t)) {
        dims.add(bound.get(t));
      } else {
        throw new RuleError(
            Message.CUSTOM_UNBOUND,
            null,
            where,
            c.layerName(),
            t,
            what,
            c.layerName(),
            "[" + String.join(", ", c.input()) + "]");
      }
    }
    return new TShape(dims);
  }

  /** Parameter {@code <node>_<role>} of this node. */
  private ParamInfo param(String role, TShape shape) {
    return new ParamInfo(node.name() + "_" + role, node.name(), shape);
  }

  /** Checks {@code axis} against the input's rank and returns it made non-negative. */
  private int axis(int axis, Source s) {
    int rank = s.shape().rank();
    if (axis < -rank || axis >= rank) {
      throw new RuleError(
          Message.BAD_AXIS, "axis", where, axis, s.describe(), rank, -rank, rank - 1);
    }
    return axis < 0 ? axis + rank : axis;
  }

  /**
   * The size of the normalised axis, which shapes gamma and beta: the axis must exist and its size
   * be known.
   */
  private int channels(String layer, int axis) {
    int a = axis(axis, x());
    int c = x().shape().dim(a);
    if (c < 0) {
      throw new RuleError(
          Message.UNKNOWN_CHANNELS, "axis", where, layer, a, "the normalised axis", x().describe());
    }
    return c;
  }

  /** One spatial output size of a window sliding over axis 2 + {@code axis}; BATCH stays. */
  private int window(int axis, int span, String how, int stride, int pad) {
    int size = x().shape().dim(2 + axis);
    if (size < 0) {
      return TShape.BATCH;
    }
    int padded = size + 2 * pad;
    if (span > padded) {
      throw new RuleError(
          Message.KERNEL_TOO_LARGE,
          "kernel",
          where,
          span,
          axis == 0 ? "height" : "width",
          how,
          size,
          padded,
          x().describe());
    }
    return (padded - span) / stride + 1;
  }

  private void rank4(String layer) {
    TShape s = x().shape();
    if (s.rank() == 4) {
      return;
    }
    String hint = "";
    if (s.rank() == 2 && s.dim(1) > 0) {
      int side = (int) Math.round(Math.sqrt(s.dim(1)));
      hint =
          side * side == s.dim(1)
              ? "; to read each row as a "
                  + side
                  + "x"
                  + side
                  + " image, reshape it first: "
                  + "@Reshape(shape = {BATCH, 1, "
                  + side
                  + ", "
                  + side
                  + "})"
              : "; reshape it first, e.g. @Reshape(shape = {BATCH, C, H, W})";
    }
    throw new RuleError(
        Message.WRONG_RANK, null, where, layer, "4", "[N, C, H, W]", x().describe(), hint);
  }

  private RuleError badReshape(LayerSpec.Reshape r, String reason) {
    return new RuleError(
        Message.BAD_RESHAPE,
        "shape",
        where,
        r.target(),
        reason + " (input " + x().describe() + ")");
  }

  /**
   * A dimension's size as a product of a known factor and the input's BATCH dimensions, each an
   * independent unknown: {@code 784}, {@code BATCH}, {@code 2 × BATCH}.
   */
  private record Size(long factor, List<Integer> batches) {
    Size {
      batches = batches.stream().sorted().toList();
    }

    /** A known size. */
    static Size known(long n) {
      return new Size(n, List.of());
    }

    /** The product of {@code sizes}. */
    static Size product(List<Size> sizes) {
      Size p = known(1);
      for (Size z : sizes) {
        p = p.times(z);
      }
      return p;
    }

    /** {@code this × o}. */
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

    /** The size as a dimension: BATCH if it depends on one. */
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
}
