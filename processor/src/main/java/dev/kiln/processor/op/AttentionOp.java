package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.d;
import static dev.kiln.processor.op.Args.i;

import dev.kiln.annotations.MultiHeadAttention;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.NodeSpec;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ParamInfo;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.Source;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code @MultiHeadAttention}: multi-head scaled dot-product attention over MXNet's {@code
 * FullyConnected}, {@code batch_dot} and {@code softmax} with {@code use_length} (runtime {@code
 * AttentionSpec}). Its inputs say what it attends to: the query alone, the query and its valid
 * lengths, the query, key and value, or those three and the lengths.
 *
 * @param heads the number of heads
 * @param keyDim each head's query and key size, 0 for the query's width / heads
 * @param valueDim each head's value size, 0 for keyDim's
 * @param dropout the probability of dropping an attention weight in training
 * @param causal whether a query step sees only the key steps up to its own
 * @param noBias whether the projections have no biases
 */
record AttentionOp(
    int heads, int keyDim, int valueDim, double dropout, boolean causal, boolean noBias)
    implements Op {
  static final OpReader<MultiHeadAttention> READER =
      OpReader.of(
          MultiHeadAttention.class,
          a ->
              new AttentionOp(
                  a.heads(), a.keyDim(), a.valueDim(), a.dropout(), a.causal(), a.noBias()),
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
   * The query {@code [N, steps, width]} gives the output's shape; keys and values {@code [N,
   * keySteps, kvWidth]} (the query itself in self-attention) shape the key and value projections;
   * the lengths, when given, are {@code [N]}.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    List<Source> in = site.in();
    if (in.size() > 4) {
      String names =
          site.node().wires().stream()
              .map(NodeSpec.Wire::parameterName)
              .collect(Collectors.joining(", "));
      throw site.fail(
          Message.ATTENTION_INPUTS,
          null,
          site.where(),
          "it declares " + in.size() + " inputs (" + names + ")");
    }
    Source query = in.get(0);
    requireSequence(site, query, "[N, steps, width]", true);
    if (in.size() == 2 && in.get(1).shape().rank() == 3) {
      String from = in.get(1).node().name();
      throw site.fail(
          Message.ATTENTION_INPUTS,
          null,
          site.where(),
          "its second input is "
              + in.get(1).describe()
              + ", not lengths [BATCH]; for cross-attention declare the key and the value, the "
              + "same node for both: "
              + site.node().name()
              + "(Sym "
              + site.node().wires().get(0).parameterName()
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
    if (causal && query.shape().dim(1) != key.shape().dim(1)) {
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
              + value.node().name()
              + " to "
              + target
              + " first, with a node @Dense(units = "
              + k.dim(2)
              + ", flatten = false) that reads "
              + value.node().name();
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
        chain("AttentionSpec", "heads", i(heads))
            .then("width", i(site.shape().dim(2)))
            .when(keyDim > 0, "keyDim", i(keyDim))
            .when(valueDim > 0, "valueDim", i(valueDim))
            .when(dropout > 0, "dropout", d(dropout))
            .when(causal, "causal")
            .when(noBias, "withoutBias")
            .when(inputs >= 3, "cross")
            .when(inputs % 2 == 0, "withLengths");
    return NodeCall.Builder.of("node", spec.build(), new NodeCall.Inputs());
  }
}
