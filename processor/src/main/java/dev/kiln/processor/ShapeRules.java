package dev.kiln.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The compile-time shape rule of every built-in layer, each mirroring the shape function of the
 * MXNet operator the layer emits (MXNet 1.9.1, {@code src/operator/}). {@code BATCH} (-1)
 * dimensions pass through as unknown, as they do in MXNet's own inference.
 */
final class ShapeRules {
  private ShapeRules() {}

  /**
   * A node's inferred output shape, the parameters it creates and its auxiliary states (e.g. a
   * batch norm's moving averages).
   */
  record Result(TShape shape, List<CheckedModel.ParamInfo> params,
      List<CheckedModel.ParamInfo> aux) {
    /** A result without auxiliary states. */
    Result(TShape shape, List<CheckedModel.ParamInfo> params) {
      this(shape, params, List.of());
    }
  }

  /** A broken rule: the message, the attribute at fault (or null) and the message arguments. */
  static final class RuleError extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Message message;
    final String attribute;
    final transient Object[] args;

    RuleError(Message message, String attribute, Object... args) {
      super(message.id(), null, false, false);
      this.message = message;
      this.attribute = attribute;
      this.args = args;
    }
  }

  /** One input of a node: its shape and where it came from, for messages. */
  record Source(TShape shape, NodeSpec node) {
    /** {@code [BATCH, 32] from inner (@Dense(units = 32))}. */
    String describe() {
      return shape + " from " + node.name() + " (" + node.annotationText() + ")";
    }
  }

  static Result infer(String where, NodeSpec node, List<Source> in) throws RuleError {
    LayerSpec layer = node.layer();
    if (layer instanceof LayerSpec.Input i) {
      return new Result(i.shape(), List.of());
    }
    if (layer instanceof LayerSpec.Dense d) {
      return dense(where, node, d, in.get(0));
    }
    if (layer instanceof LayerSpec.Activation || layer instanceof LayerSpec.Softmax) {
      if (layer instanceof LayerSpec.Softmax s) {
        checkAxis(where, s.axis(), in.get(0));
      }
      return new Result(in.get(0).shape(), List.of());
    }
    if (layer instanceof LayerSpec.Flatten) {
      return new Result(flatten(in.get(0).shape()), List.of());
    }
    if (layer instanceof LayerSpec.Add) {
      return add(where, in);
    }
    if (layer instanceof LayerSpec.Concat c) {
      return concat(where, c, in);
    }
    if (layer instanceof LayerSpec.Custom c) {
      return custom(where, node, c, in.get(0));
    }
    if (layer instanceof LayerSpec.Conv2D
        || layer instanceof LayerSpec.Pool
        || layer instanceof LayerSpec.GlobalAvgPool
        || layer instanceof LayerSpec.Reshape
        || layer instanceof LayerSpec.Dropout
        || layer instanceof LayerSpec.BatchNorm
        || layer instanceof LayerSpec.LayerNorm
        || layer instanceof LayerSpec.Embedding) {
      return LayerRules.infer(where, node, in.get(0));
    }
    throw new IllegalStateException("no shape rule for " + layer);
  }

  /**
   * MXNet {@code FullyConnectedShape}: with {@code flatten} the input is {@code [N, rest...]}
   * read as {@code [N, prod(rest)]} and the output is {@code [N, units]}; without, the last
   * dimension is replaced by {@code units}. Weight {@code [units, in]}, bias {@code [units]}.
   */
  private static Result dense(String where, NodeSpec node, LayerSpec.Dense d, Source x)
      throws RuleError {
    TShape s = x.shape();
    int in = d.flatten() ? s.product(1) : s.dim(s.rank() - 1);
    if (in < 0) {
      throw new RuleError(Message.UNKNOWN_FEATURES, null, where, s, x.node().name());
    }
    List<Integer> out = new ArrayList<>();
    if (d.flatten()) {
      out.add(s.dim(0));
    } else {
      out.addAll(s.dims().subList(0, s.rank() - 1));
    }
    out.add(d.units());
    List<CheckedModel.ParamInfo> params = new ArrayList<>();
    params.add(new CheckedModel.ParamInfo(node.name() + "_weight", node.name(),
        TShape.of(d.units(), in)));
    if (!d.noBias()) {
      params.add(new CheckedModel.ParamInfo(node.name() + "_bias", node.name(),
          TShape.of(d.units())));
    }
    return new Result(new TShape(out), params);
  }

  /**
   * A custom layer's contract: the input must match the layer's input pattern (numbers
   * exactly, each name consistently, names that are layer elements to their written values);
   * the output and parameter shapes are the patterns with every name replaced by its value.
   */
  private static Result custom(String where, NodeSpec node, LayerSpec.Custom c, Source x)
      throws RuleError {
    String pattern = "[" + String.join(", ", c.input()) + "]";
    TShape s = x.shape();
    if (s.rank() != c.input().size()) {
      throw new RuleError(Message.CUSTOM_INPUT, null, where, c.layerName(), pattern,
          x.describe(), "the ranks differ");
    }
    java.util.Map<String, Integer> bound = new java.util.LinkedHashMap<>(c.dims());
    for (int i = 0; i < s.rank(); i++) {
      String t = c.input().get(i);
      int actual = s.dim(i);
      Integer want = Character.isDigit(t.charAt(0)) ? Integer.valueOf(t) : bound.get(t);
      if (want == null) {
        bound.put(t, actual);
      } else if (want != actual) {
        throw new RuleError(Message.CUSTOM_INPUT, null, where, c.layerName(), pattern,
            x.describe(), "dimension " + i + " ('" + t + "') must be "
                + (want < 0 ? "BATCH" : want.toString()));
      }
    }
    TShape out = resolve(where, c, c.output(), "its output", bound);
    List<CheckedModel.ParamInfo> params = new ArrayList<>();
    for (LayerSpec.CustomParam p : c.params()) {
      TShape shape = resolve(where, c, p.shape(), "parameter " + p.name(), bound);
      if (shape.dims().stream().anyMatch(d -> d < 0)) {
        throw new RuleError(Message.CUSTOM_PARAM_BATCH, null, where, p.name(), c.layerName(),
            shape);
      }
      params.add(new CheckedModel.ParamInfo(node.name() + "_" + p.name(), node.name(), shape));
    }
    return new Result(out, params);
  }

  private static TShape resolve(String where, LayerSpec.Custom c, List<String> pattern,
      String what, java.util.Map<String, Integer> bound) throws RuleError {
    List<Integer> dims = new ArrayList<>();
    for (String t : pattern) {
      if (Character.isDigit(t.charAt(0))) {
        dims.add(Integer.valueOf(t));
      } else if (bound.containsKey(t)) {
        dims.add(bound.get(t));
      } else {
        throw new RuleError(Message.CUSTOM_UNBOUND, null, where, c.layerName(), t, what,
            c.layerName(), "[" + String.join(", ", c.input()) + "]");
      }
    }
    return new TShape(dims);
  }

  /** MXNet {@code FlattenShape}: {@code [d0, prod(d1...)]}. */
  private static TShape flatten(TShape s) {
    return TShape.of(s.dim(0), s.rank() == 1 ? 1 : s.product(1));
  }

  /** MXNet {@code elemwise_add}: every input has the same shape. */
  private static Result add(String where, List<Source> in) throws RuleError {
    TShape first = in.get(0).shape();
    for (Source s : in) {
      if (!s.shape().equals(first)) {
        throw new RuleError(Message.SHAPE_MISMATCH, null, where, "@Add", describeAll(in));
      }
    }
    return new Result(first, List.of());
  }

  /**
   * MXNet {@code ConcatShape}: equal rank, equal dimensions except along {@code axis}, where the
   * sizes add up (unknown if any is BATCH).
   */
  private static Result concat(String where, LayerSpec.Concat c, List<Source> in)
      throws RuleError {
    TShape first = in.get(0).shape();
    for (Source s : in) {
      if (s.shape().rank() != first.rank()) {
        throw new RuleError(Message.RANK_MISMATCH, null, where, "@Concat", describeAll(in));
      }
    }
    int axis = checkAxis(where, c.axis(), in.get(0));
    List<Integer> out = new ArrayList<>(first.dims());
    int sum = 0;
    for (Source s : in) {
      for (int i = 0; i < first.rank(); i++) {
        if (i != axis && !s.shape().dims().get(i).equals(first.dim(i))) {
          throw new RuleError(Message.CONCAT_MISMATCH, null, where, c.axis(), axis,
              describeAll(in));
        }
      }
      int d = s.shape().dim(axis);
      sum = sum < 0 || d < 0 ? TShape.BATCH : sum + d;
    }
    out.set(axis, sum);
    return new Result(new TShape(out), List.of());
  }

  /** Checks {@code axis} against the input's rank and returns it made non-negative. */
  static int checkAxis(String where, int axis, Source x) throws RuleError {
    int rank = x.shape().rank();
    if (axis < -rank || axis >= rank) {
      throw new RuleError(Message.BAD_AXIS, "axis", where, axis, x.describe(), rank, -rank,
          rank - 1);
    }
    return axis < 0 ? axis + rank : axis;
  }

  private static String describeAll(List<Source> in) {
    List<String> parts = in.stream().map(Source::describe).collect(Collectors.toList());
    if (parts.size() == 2) {
      return parts.get(0) + " and " + parts.get(1);
    }
    return String.join(", ", parts);
  }
}
