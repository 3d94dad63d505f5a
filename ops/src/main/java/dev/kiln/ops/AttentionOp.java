package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.i;

import dev.kiln.annotations.MultiHeadAttention;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * Multi-head scaled dot-product attention ({@code @MultiHeadAttention}) over a query {@code [N,
 * steps, width]} and, for cross-attention, keys and values {@code [N, keySteps, kvWidth]},
 * optionally masked by each example's valid number of key steps ({@code [N]}) and by causality.
 * Generated code writes {@code AttentionOp.heads(4).width(64)}, then {@code .keyDim(...)}, {@code
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
 * <p>At compile time: {@code @MultiHeadAttention}: multi-head scaled dot-product attention over
 * MXNet's {@code FullyConnected}, {@code batch_dot} and {@code softmax} with {@code use_length}
 * (runtime {@code AttentionOp}). Its inputs say what it attends to: the query alone, the query and
 * its valid lengths, the query, key and value, or those three and the lengths.
 *
 * @param heads the number of heads
 * @param keyDim each head's query and key size, 0 for the query's width / heads
 * @param valueDim each head's value size, 0 for keyDim's
 * @param dropout the probability of dropping an attention weight in training
 * @param width the query's width, which the output has too; 0 read from the annotation, whose width
 *     the processor takes from the query's shape
 * @param causalMask whether a query step sees only the key steps up to its own
 * @param noBias whether the projections have no biases
 * @param crossAttention whether keys and values are inputs of their own (else the query is all
 *     three)
 * @param lengths whether the last input is each example's valid number of key steps
 */
public record AttentionOp(
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
  static final OpReader<MultiHeadAttention> READER =
      OpReader.of(
          MultiHeadAttention.class,
          a ->
              new AttentionOp(
                  a.heads(),
                  0,
                  a.keyDim(),
                  a.valueDim(),
                  a.dropout(),
                  a.causal(),
                  a.noBias(),
                  false,
                  false),
          "heads",
          "keyDim",
          "valueDim",
          "dropout",
          "causal",
          "noBias");

  private static final String LAYER = "@MultiHeadAttention";

  @Override
  public String annotation() {
    return "MultiHeadAttention";
  }

  @Override
  public String mxnetOp() {
    return "batch_dot+softmax";
  }

  @Override
  public int arity() {
    return 1;
  }

  /** One to four inputs; which ones they are is checked with their shapes. */
  @Override
  public boolean variadic() {
    return true;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("heads", heads);
    if (keyDim < 0) {
      throw site.fail(Message.NEGATIVE, "keyDim", site.prefix(), "keyDim", keyDim);
    }
    if (valueDim < 0) {
      throw site.fail(Message.NEGATIVE, "valueDim", site.prefix(), "valueDim", valueDim);
    }
    if (!(dropout >= 0 && dropout < 1)) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          "dropout",
          site.prefix(),
          "dropout",
          "in [0, 1) (the probability of dropping an attention weight in training)",
          dropout);
    }
  }

  /**
   * Free dimensions pass through: the query's and the key's numbers of steps may be free (and
   * differ, in cross-attention); the widths must be constants.
   */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * The query {@code [N, steps, width]} gives the output's shape; keys and values {@code [N,
   * keySteps, kvWidth]} (the query itself in self-attention) shape the key and value projections;
   * the lengths, when given, are {@code [N]}.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    List<Source> in = site.in();
    if (in.size() > 4) {
      String names = String.join(", ", site.parameterNames());
      throw site.fail(
          Message.ATTENTION_INPUTS,
          null,
          site.where(),
          "it declares " + in.size() + " inputs (" + names + ")");
    }
    Source query = in.get(0);
    requireSequence(site, query, "[N, steps, width]", true);
    if (in.size() == 2 && in.get(1).shape().rank() == 3) {
      String from = in.get(1).node();
      throw site.fail(
          Message.ATTENTION_INPUTS,
          null,
          site.where(),
          "its second input is "
              + in.get(1).describe()
              + ", not lengths [BATCH]; for cross-attention declare the key and the value, the "
              + "same node for both: "
              + site.node()
              + "(Sym "
              + site.parameterNames().get(0)
              + ", @From(\""
              + from
              + "\") Sym key, @From(\""
              + from
              + "\") Sym value)");
    }
    boolean cross = in.size() >= 3;
    Source key = cross ? in.get(1) : query;
    if (cross) {
      Source value = in.get(2);
      requireSequence(site, key, "[N, keySteps, kvWidth] key", false);
      requireSequence(site, value, "[N, keySteps, kvWidth] value", false);
      checkKeyValue(site, key, value);
    }
    if (in.size() % 2 == 0) {
      checkLengths(site, in.get(in.size() - 1));
    }
    int width = known(site, query, "the query's width");
    int kvWidth = cross ? known(site, key, "the key's and value's width") : width;
    if (keyDim == 0 && width % heads != 0) {
      throw site.fail(
          Message.ATTENTION_HEADS, "heads", site.where(), heads, width, width, divisors(width));
    }
    if (causalMask && query.shape().dim(1) != key.shape().dim(1)) {
      throw site.fail(
          Message.CAUSAL_STEPS,
          "causal",
          site.where(),
          steps(query.shape().dim(1)),
          steps(key.shape().dim(1)));
    }
    int dk = keyDim > 0 ? keyDim : width / heads;
    int dv = valueDim > 0 ? valueDim : dk;
    List<ParamInfo> params = new ArrayList<>();
    projection(site, params, ParamRole.QUERY_WEIGHT, ParamRole.QUERY_BIAS, heads * dk, width);
    projection(site, params, ParamRole.KEY_WEIGHT, ParamRole.KEY_BIAS, heads * dk, kvWidth);
    projection(site, params, ParamRole.VALUE_WEIGHT, ParamRole.VALUE_BIAS, heads * dv, kvWidth);
    projection(site, params, ParamRole.OUTPUT_WEIGHT, ParamRole.OUTPUT_BIAS, width, heads * dv);
    return new Inferred(query.shape(), params, List.of());
  }

  private void projection(
      ShapeSite site, List<ParamInfo> params, ParamRole weight, ParamRole bias, int out, int in) {
    params.add(site.param(weight, TShape.of(out, in)));
    if (!noBias) {
      params.add(site.param(bias, TShape.of(out)));
    }
  }

  /** {@code s} must be rank 3; a rank-2 query of known width gets the reshape that makes one. */
  private static void requireSequence(ShapeSite site, Source s, String layout, boolean query) {
    TShape shape = s.shape();
    if (shape.rank() == 3) {
      return;
    }
    String hint =
        query && shape.rank() == 2 && shape.dim(1) > 0
            ? "; a sequence of one step is @Reshape(shape = {BATCH, 1, " + shape.dim(1) + "})"
            : "";
    throw site.fail(Message.WRONG_RANK, null, site.where(), LAYER, "3", layout, s.describe(), hint);
  }

  /** The key and the value: one shape. */
  private static void checkKeyValue(ShapeSite site, Source key, Source value) {
    TShape k = key.shape();
    TShape v = value.shape();
    if (k.equals(v)) {
      return;
    }
    String hint;
    if (k.dim(1) != v.dim(1) || k.dim(0) != v.dim(0)) {
      hint = "each key step has its value, so both need the same number of steps";
    } else {
      TShape target = TShape.of(v.dim(0), v.dim(1), k.dim(2));
      hint =
          "project "
              + value.node()
              + " to "
              + target
              + " first, with a node @Dense(units = "
              + k.dim(2)
              + ", flatten = false) that reads "
              + value.node();
    }
    throw site.fail(
        Message.KEY_VALUE_MISMATCH, null, site.where(), key.describe(), value.describe(), hint);
  }

  /** The lengths: {@code [BATCH]}, or the query's fixed batch size. */
  private static void checkLengths(ShapeSite site, Source lengths) {
    TShape s = lengths.shape();
    int batch = site.shape().dim(0);
    if (s.rank() == 1 && (s.dim(0) == TShape.BATCH || s.dim(0) == batch)) {
      return;
    }
    String hint =
        s.rank() == 2 ? "; give each example's number of valid steps, not a mask of them" : "";
    throw site.fail(Message.ATTENTION_LENGTHS, null, site.where(), lengths.describe(), hint);
  }

  /** The width of {@code s}, which shapes parameters, so must be known. */
  private static int known(ShapeSite site, Source s, String what) {
    int w = s.shape().dim(2);
    if (w < 0) {
      throw site.fail(Message.UNKNOWN_CHANNELS, null, site.where(), LAYER, 2, what, s.describe());
    }
    return w;
  }

  /** {@code 1, 2, 4, 8, 16, 32 or 64}: the numbers of heads up to 64 that divide {@code width}. */
  private static String divisors(int width) {
    List<String> ds = new ArrayList<>();
    for (int h = 1; h <= Math.min(64, width); h++) {
      if (width % h == 0) {
        ds.add(Integer.toString(h));
      }
    }
    if (ds.size() == 1) {
      return ds.get(0);
    }
    return String.join(", ", ds.subList(0, ds.size() - 1)) + " or " + ds.get(ds.size() - 1);
  }

  private static String steps(int d) {
    return d == TShape.STEPS ? "STEPS" : d < 0 ? "BATCH" : Integer.toString(d);
  }

  /**
   * The projections (a multiply-add per weight and query or key step, a bias add), the scores and
   * the weighted sum (a multiply-add per head, query step, key step and head dimension) and the
   * softmax (about 4 per score); -1 when the number of steps is only known at bind time.
   */
  @Override
  public long flops(List<TShape> in, TShape out) {
    TShape q = in.get(0);
    TShape k = in.size() >= 3 ? in.get(1) : q;
    long t = q.dim(1);
    long s = k.dim(1);
    if (t < 0 || s < 0) {
      return -1;
    }
    long w = q.dim(2);
    long kv = k.dim(2);
    long dk = keyDim > 0 ? keyDim : w / heads;
    long dv = valueDim > 0 ? valueDim : dk;
    long projections =
        2 * (t * w * heads * dk + s * kv * heads * dk + s * kv * heads * dv + t * heads * dv * w);
    long biases = noBias ? 0 : t * heads * dk + s * heads * dk + s * heads * dv + t * w;
    long attention = 2 * heads * t * s * dk + 4 * heads * t * s + 2 * heads * t * s * dv;
    return projections + biases + attention;
  }

  @Override
  public NodeCall call(CallSite site) {
    int inputs = site.sources().size();
    Args.Chain spec =
        chain(AttentionOp.class, "heads", i(heads))
            .then("width", i(site.shape().dim(2)))
            .when(keyDim > 0, "keyDim", i(keyDim))
            .when(valueDim > 0, "valueDim", i(valueDim))
            .when(dropout > 0, "dropout", d(dropout))
            .when(causalMask, "causal")
            .when(noBias, "withoutBias")
            .when(inputs >= 3, "cross")
            .when(inputs % 2 == 0, "withLengths");
    return NodeCall.Builder.of("node", spec.build(), new NodeCall.Inputs());
  }

  /** {@code heads} heads over a query {@code width} wide, every other attribute its default. */
  public static AttentionOp heads(int heads) {
    return new AttentionOp(heads, 0, 0, 0, 0, false, false, false, false);
  }

  /** This attention over a query (and to an output) {@code width} wide. */
  public AttentionOp width(int width) {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention with queries and keys {@code keyDim} wide per head. */
  public AttentionOp keyDim(int keyDim) {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention with values {@code valueDim} wide per head. */
  public AttentionOp valueDim(int valueDim) {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention dropping attention weights with probability {@code dropout} in training. */
  public AttentionOp dropout(double dropout) {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, crossAttention, lengths);
  }

  /** This attention, each query step seeing only the key steps up to its own. */
  public AttentionOp causal() {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, true, noBias, crossAttention, lengths);
  }

  /** This attention without biases in its projections. */
  public AttentionOp withoutBias() {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, causalMask, true, crossAttention, lengths);
  }

  /** This attention reading keys and values of their own: inputs query, key, value. */
  public AttentionOp cross() {
    return new AttentionOp(
        heads, width, keyDim, valueDim, dropout, causalMask, noBias, true, lengths);
  }

  /** This attention masked by each example's valid number of key steps, its last input. */
  public AttentionOp withLengths() {
    return new AttentionOp(
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

  /**
   * @throws IllegalArgumentException naming the node if an attribute is out of range
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    check(scope, inputs.size());
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

  private void check(NodeScope scope, int inputs) {
    // The attributes were checked as the annotation's (checkAttributes); these need the width,
    // which the processor checked against the query's shape, and the inputs.
    String why = null;
    if (width <= 0) {
      why = "the width must be positive, got " + width;
    } else if (keyDim == 0 && width % heads != 0) {
      why = heads + " heads do not divide the width " + width + "; give keyDim";
    } else if (inputs != (crossAttention ? 3 : 1) + (lengths ? 1 : 0)) {
      why =
          "takes "
              + (crossAttention ? "a query, a key and a value" : "one sequence")
              + (lengths ? " and the lengths" : "")
              + ", got "
              + inputs
              + " inputs";
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

  /** How the layer is read: its annotation. */
  static final Unit UNIT = Unit.of(READER);
}
