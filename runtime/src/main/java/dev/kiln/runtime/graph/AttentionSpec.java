package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.ArrayList;
import java.util.List;

/**
 * Multi-head scaled dot-product attention ({@code @MultiHeadAttention}) over a query {@code [N,
 * steps, width]} and, for cross-attention, keys and values {@code [N, keySteps, kvWidth]},
 * optionally masked by each example's valid number of key steps ({@code [N]}) and by causality.
 * Generated code writes {@code AttentionSpec.heads(4).width(64)}, then {@code .keyDim(...)}, {@code
 * .valueDim(...)}, {@code .dropout(...)}, {@code .causal()}, {@code .withoutBias()}, {@code
 * .cross()} and {@code .withLengths()} where the annotation or the wiring says so; the inputs are
 * the query (then the key and the value when {@code crossAttention}), then the lengths when {@code
 * lengths}.
 *
 * <p>Each head {@code h} projects the query to {@code q_h = x Wq_h + bq_h} ({@code keyDim} wide),
 * the keys and values likewise, computes {@code softmax(q_h k_h^T / sqrt(keyDim))} over the key
 * steps (a masked key step gets weight exactly 0), drops weights out in training, and takes the
 * weighted sum of {@code v_h}; the heads' results side by side are projected back to {@code width}.
 * Parameters {@code <node>_query_weight} {@code [heads * keyDim, width]}, {@code <node>_key_weight}
 * {@code [heads * keyDim, kvWidth]}, {@code <node>_value_weight} {@code [heads * valueDim,
 * kvWidth]}, {@code <node>_output_weight} {@code [width, heads * valueDim]} and, unless {@code
 * noBias}, a bias for each ({@code <node>_query_bias}, ...), laid out as MXNet's {@code
 * FullyConnected} takes them.
 *
 * <p>MXNet operators: a {@code FullyConnected} per projection (over the last axis), the heads split
 * off with {@code Reshape} and {@code transpose}, {@code batch_dot} for the scores and the weighted
 * sum, {@code softmax} with {@code use_length} for the normalisation and both masks (a query step
 * {@code t} of a causal attention sees {@code min(t + 1, length)} key steps), {@code Dropout}. See
 * {@code docs/attention.md} for what was measured against MXNet's fused self-attention operators.
 *
 * @param heads the number of heads
 * @param width the query's width, which the output has too
 * @param keyDim each head's query and key size ({@code width / heads} when 0)
 * @param valueDim each head's value size ({@code keyDim} when 0)
 * @param dropout the probability of dropping an attention weight in training
 * @param causalMask whether a query step sees only the key steps up to its own
 * @param noBias whether the projections have no biases
 * @param crossAttention whether keys and values are inputs of their own (else the query is all
 *     three)
 * @param lengths whether the last input is each example's valid number of key steps
 */
public record AttentionSpec(
    int heads,
    int width,
    int keyDim,
    int valueDim,
    double dropout,
    boolean causalMask,
    boolean noBias,
    boolean crossAttention,
    boolean lengths)
    implements LayerOp {

  /** {@code heads} heads over a query {@code width} wide, every other attribute its default. */
  public static AttentionSpec heads(int heads) {
    return new AttentionSpec(heads, 0, 0, 0, 0, false, false, false, false);
  }

  /** This attention over a query (and to an output) {@code width} wide. */
  public AttentionSpec width(int width) {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention with queries and keys {@code keyDim} wide per head. */
  public AttentionSpec keyDim(int keyDim) {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention with values {@code valueDim} wide per head. */
  public AttentionSpec valueDim(int valueDim) {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention dropping attention weights with probability {@code dropout} in training. */
  public AttentionSpec dropout(double dropout) {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention, each query step seeing only the key steps up to its own. */
  public AttentionSpec causal() {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, true, noBias, crossAttention, lengths);
  }

  /** This attention without biases in its projections. */
  public AttentionSpec withoutBias() {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, true, crossAttention, lengths);
  }

  /** This attention reading keys and values of their own: inputs query, key, value. */
  public AttentionSpec cross() {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, true, lengths);
  }

  /** This attention masked by each example's valid number of key steps, its last input. */
  public AttentionSpec withLengths() {
    return new AttentionSpec(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, true);
  }

  /** Each head's query and key size. */
  public int headKeyDim() {
    return keyDim > 0 ? keyDim : width / heads;
  }

  /** Each head's value size. */
  public int headValueDim() {
    return valueDim > 0 ? valueDim : headKeyDim();
  }

  @Override
  public int arity() {
    return (crossAttention ? 3 : 1) + (lengths ? 1 : 0);
  }

  /**
   * @throws IllegalArgumentException naming the node if an attribute is out of range
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    check(scope);
    return batchDotAttention(scope, inputs);
  }

  /**
   * Each projection by {@code FullyConnected}, the heads split into the batch axis ({@code [N *
   * heads, steps, d]}, example-major, as MXNet's fused attention operators lay them out), {@code
   * batch_dot} for the scores and for the weighted sum, the heads merged back.
   */
  private Sym batchDotAttention(NodeScope scope, List<Sym> inputs) {
    Sym query = inputs.get(0);
    Sym key = crossAttention ? inputs.get(1) : query;
    Sym value = crossAttention ? inputs.get(2) : query;
    int dk = headKeyDim();
    int dv = headValueDim();
    String n = scope.node();
    Sym q =
        heads(
            scope,
            n + "_query",
            project(
                scope, "_query", query, ParamRole.QUERY_WEIGHT, ParamRole.QUERY_BIAS, heads * dk));
    Sym k =
        heads(
            scope,
            n + "_key",
            project(scope, "_key", key, ParamRole.KEY_WEIGHT, ParamRole.KEY_BIAS, heads * dk));
    Sym v =
        heads(
            scope,
            n + "_value",
            project(
                scope, "_value", value, ParamRole.VALUE_WEIGHT, ParamRole.VALUE_BIAS, heads * dv));
    Sym scores =
        scope.op(
            "batch_dot",
            n + "_scores",
            Attrs.of("transpose_b", true),
            List.of("lhs", "rhs"),
            List.of(q, k));
    Sym weights = dropout(scope, normalise(scope, scores, inputs, Math.sqrt(dk)));
    Sym context =
        scope.op(
            "batch_dot", n + "_context", Attrs.of(), List.of("lhs", "rhs"), List.of(weights, v));
    Sym split = reshape(scope, n + "_context_split", context, "(-1,%d,0,0)".formatted(heads), true);
    Sym steps =
        scope.op(
            "transpose",
            n + "_context_steps",
            Attrs.of("axes", Attrs.tuple(0, 2, 1, 3)),
            List.of("data"),
            List.of(split));
    Sym merged = reshape(scope, n + "_context_merge", steps, "(0,0,-1)", false);
    return project(scope, "", merged, ParamRole.OUTPUT_WEIGHT, ParamRole.OUTPUT_BIAS, width);
  }

  /**
   * {@code lengths} held within {@code [0, keySteps]}: MXNet's softmax reads and writes a row as
   * far as its length says, past the row's end for a longer one and before its start for a negative
   * one, so a length outside the key steps must never reach it.
   */
  private static Sym within(NodeScope scope, Sym lengths, Sym scores) {
    String n = scope.node();
    Sym upTo =
        scope.op(
            "_contrib_arange_like",
            n + "_key_steps",
            Attrs.of("start", 1, "step", 1, "axis", -1),
            List.of("data"),
            List.of(scores));
    Sym keySteps =
        scope.op(
            "max",
            n + "_key_count",
            Attrs.of("axis", 0, "keepdims", true),
            List.of("data"),
            List.of(upTo));
    Sym atMost =
        scope.op(
            "broadcast_minimum",
            n + "_lengths_at_most",
            Attrs.of(),
            List.of("lhs", "rhs"),
            List.of(lengths, keySteps));
    return scope.op(
        "_maximum_scalar",
        n + "_lengths_within",
        Attrs.of("scalar", 0),
        List.of("data"),
        List.of(atMost));
  }

  private static Attrs softmaxAttrs(double temperature, boolean masked) {
    if (temperature == 1) {
      return masked ? Attrs.of("axis", -1, "use_length", true) : Attrs.of("axis", -1);
    }
    return masked
        ? Attrs.of("axis", -1, "temperature", temperature, "use_length", true)
        : Attrs.of("axis", -1, "temperature", temperature);
  }

  /** {@code Dropout} of the attention weights when {@code dropout > 0}. */
  private Sym dropout(NodeScope scope, Sym weights) {
    if (dropout == 0) {
      return weights;
    }
    return scope.op(
        "Dropout",
        scope.node() + "_dropout",
        Attrs.of("p", dropout),
        List.of("data"),
        List.of(weights));
  }

  private void check(NodeScope scope) {
    String why = null;
    if (heads <= 0 || width <= 0) {
      why = "heads and width must be positive, got " + heads + " and " + width;
    } else if (keyDim < 0 || valueDim < 0) {
      why = "keyDim and valueDim must be 0 (the default) or positive";
    } else if (keyDim == 0 && width % heads != 0) {
      why = heads + " heads do not divide the width " + width + "; give keyDim";
    } else if (!(dropout >= 0 && dropout < 1)) {
      why = "dropout must be in [0, 1), got " + dropout;
    }
    if (why != null) {
      throw new IllegalArgumentException(scope.source() + ": " + why);
    }
  }

  /**
   * {@code FullyConnected} over the last axis, {@code units} wide, named {@code <node><suffix>}.
   */
  private Sym project(
      NodeScope scope, String suffix, Sym x, ParamRole weight, ParamRole bias, int units) {
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(x, scope.param(weight)));
    if (!noBias) {
      keys.add("bias");
      args.add(scope.param(bias));
    }
    return scope.op(
        "FullyConnected",
        scope.node() + suffix,
        Attrs.of("num_hidden", units, "no_bias", noBias, "flatten", false),
        keys,
        args);
  }

  /** {@code [N, steps, heads * d]} to {@code [N * heads, steps, d]}, example-major. */
  private Sym heads(NodeScope scope, String name, Sym x) {
    Sym split = reshape(scope, name + "_split", x, "(0,0,%d,-1)".formatted(heads), false);
    Sym t =
        scope.op(
            "transpose",
            name + "_heads",
            Attrs.of("axes", Attrs.tuple(0, 2, 1, 3)),
            List.of("data"),
            List.of(split));
    return reshape(scope, name + "_merge", t, "(-1,0,0)", true);
  }

  private static Sym reshape(NodeScope scope, String name, Sym x, String shape, boolean reverse) {
    Attrs attrs = reverse ? Attrs.of("shape", shape, "reverse", true) : Attrs.of("shape", shape);
    return scope.op("Reshape", name, attrs, List.of("data"), List.of(x));
  }

  /**
   * The attention weights: {@code softmax} of {@code scores / sqrt(keyDim)} over the key steps,
   * with each row's number of visible key steps as its length when masked ({@code q} is the queries
   * split by head, {@code [N * heads, steps, keyDim]}, whose first two axes the lengths take).
   */
  private Sym normalise(NodeScope scope, Sym scores, List<Sym> inputs, double temperature) {
    String n = scope.node();
    if (!lengths && !causalMask) {
      return scope.op(
          "softmax",
          n + "_weights",
          softmaxAttrs(temperature, false),
          List.of("data"),
          List.of(scores));
    }
    Sym rows = null; // [N * heads, 1]: each example's valid length, once per head
    if (lengths) {
      Sym given =
          scope.op(
              "BlockGrad",
              n + "_lengths_given",
              Attrs.of(),
              List.of("data"),
              List.of(inputs.get(inputs.size() - 1)));
      Sym repeated =
          scope.op(
              "repeat",
              n + "_lengths_heads",
              Attrs.of("repeats", heads, "axis", 0),
              List.of("data"),
              List.of(given));
      rows = within(scope, reshape(scope, n + "_lengths_rows", repeated, "(-1,1)", false), scores);
    }
    Sym visible;
    if (causalMask) {
      Sym upTo =
          scope.op(
              "_contrib_arange_like",
              n + "_causal_steps",
              Attrs.of("start", 1, "step", 1, "axis", 1),
              List.of("data"),
              List.of(scores));
      Sym row = reshape(scope, n + "_causal_row", upTo, "(1,-1)", false);
      visible =
          rows == null
              ? scope.op(
                  "broadcast_like",
                  n + "_causal",
                  Attrs.of("lhs_axes", Attrs.tuple(0), "rhs_axes", Attrs.tuple(0)),
                  List.of("lhs", "rhs"),
                  List.of(row, scores))
              : scope.op(
                  "broadcast_minimum",
                  n + "_causal",
                  Attrs.of(),
                  List.of("lhs", "rhs"),
                  List.of(rows, row));
    } else {
      visible =
          scope.op(
              "broadcast_like",
              n + "_lengths_steps",
              Attrs.of("lhs_axes", Attrs.tuple(1), "rhs_axes", Attrs.tuple(1)),
              List.of("lhs", "rhs"),
              List.of(rows, scores));
    }
    Sym counts =
        scope.op(
            "Cast", n + "_lengths", Attrs.of("dtype", "int32"), List.of("data"), List.of(visible));
    return scope.op(
        "softmax",
        n + "_weights",
        softmaxAttrs(temperature, true),
        List.of("data", "length"),
        List.of(scores, counts));
  }
}
