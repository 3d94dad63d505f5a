package dev.kiln.processor.op;

import dev.kiln.names.Broadcast;
import dev.kiln.ops.MatMulOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.model.BodyError;
import dev.kiln.processor.model.ForwardBody;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A custom layer's forward body traced at compile time, with the shapes one node gives it: each
 * operation through the rule the graph build applies to it, whose home is the operator units and
 * {@code kiln-names} ({@link MatMulOp#dot}, {@link ReshapeOp}, {@link SoftmaxOp}, {@link
 * ShapeSite#axis}, {@link Broadcast}), with the axes named by the layer's patterns as the run-time
 * trace names them. The first operation that breaks its rule is a {@link BodyError}: on the
 * {@code @Param} whose declared rank makes a broadcast line up the wrong axes, otherwise on the
 * operation; a result that is not the declared output is one on the {@code return}.
 */
final class BodyTrace {
  /**
   * A value of the body: its shape, its axes' dimension names (null where none), how the body
   * writes it, and the custom layer parameter it is (or null).
   */
  private record Val(TShape shape, String[] names, String text, CustomOp.CustomParam param) {}

  private final CustomOp layer;
  private final ShapeSite site;
  private final String forward;
  private final List<Val> args = new ArrayList<>();
  private final List<Val> made = new ArrayList<>();
  private List<String> argNames = List.of();

  /**
   * The trace of {@code layer}'s body at {@code site}: the forward method's {@code Sym} parameters
   * have shapes {@code input}, {@code state} (a cell's; null otherwise) and {@code params}, in the
   * order of {@code CustomOp#params()}; {@code forward} names the method.
   */
  BodyTrace(
      CustomOp layer,
      ShapeSite site,
      String forward,
      List<String> inputNames,
      TShape input,
      TShape state,
      List<TShape> params) {
    this.layer = layer;
    this.site = site;
    this.forward = forward;
    // Forward parameter i: the input, a cell's state, then the @Params and constants in order.
    args.add(new Val(input, names(inputNames), null, null));
    if (state != null) {
      args.add(new Val(state, names(layer.state()), null, null));
    }
    for (var a : layer.args()) {
      if (a.param() < 0) {
        args.add(null);
      } else {
        CustomOp.CustomParam p = layer.params().get(a.param());
        args.add(new Val(params.get(a.param()), names(p.shape()), p.name(), p));
      }
    }
  }

  /** Traces {@code body}, which must return {@code expected}; throws the first broken rule. */
  void run(ForwardBody body, TShape expected, String declared) {
    argNames = body.names();
    for (ForwardBody.Step step : body.steps()) {
      made.add(apply(step));
    }
    Val result = value(body.result());
    if (!result.shape().equals(expected)) {
      throw BodyError.at(
          body.returned(),
          Message.CUSTOM_BODY_SHAPE,
          site.prefix(),
          forward,
          "the result " + result.text(),
          result.shape(),
          "@Layer declares " + declared + ", " + expected + " here");
    }
  }

  private Val value(ForwardBody.Operand o) {
    if (o instanceof ForwardBody.Made m) {
      return made.get(m.step());
    }
    Val v = args.get(((ForwardBody.Arg) o).index());
    return new Val(v.shape(), v.names(), argNames.get(((ForwardBody.Arg) o).index()), v.param());
  }

  private Val apply(ForwardBody.Step step) {
    Val x = value(step.receiver());
    Val y = step.other() == null ? null : value(step.other());
    TShape s = x.shape();
    return switch (step.op()) {
      case "add", "sub", "mul", "div" -> broadcast(step, x, y);
      case "dot" -> dot(step, x, y);
      case "batchDot" -> batchDot(step, x, y);
      case "transpose" -> {
        List<Integer> dims = new ArrayList<>(s.dims());
        Collections.reverse(dims);
        String[] names = x.names().clone();
        Collections.reverse(Arrays.asList(names));
        yield made(step, new TShape(dims), names);
      }
      case "sum" -> {
        int axis = unit(step, x, () -> site(x).axis(integer(step, 0), source(x)));
        List<Integer> dims = new ArrayList<>(s.dims());
        List<String> names = new ArrayList<>(Arrays.asList(x.names()));
        dims.remove(axis);
        names.remove(axis);
        if (dims.isEmpty()) {
          dims.add(1);
          names.add(null);
        }
        yield made(step, new TShape(dims), names.toArray(String[]::new));
      }
      case "softmax" ->
          made(
              step,
              unit(step, x, () -> SoftmaxOp.axis(integer(step, 0)).infer(site(x)).shape()),
              x.names());
      case "reshape" -> {
        int[] target = new int[step.ints().size()];
        for (int i = 0; i < target.length; i++) {
          target[i] = integer(step, i);
          if (target[i] == 0 || target[i] < -1) {
            throw failed(step, List.of(x), "reshape takes sizes and BATCH (-1) only");
          }
        }
        TShape out = unit(step, x, () -> ReshapeOp.of(target).infer(site(x)).shape());
        yield made(step, out, new String[out.rank()]);
      }
      default -> made(step, s, x.names()); // scale, activation, exp: the operand's shape
    };
  }

  /** A {@code Sym} operation's result. */
  private Val made(ForwardBody.Step step, TShape shape, String[] names) {
    return new Val(shape, names, step.text(), null);
  }

  /** The value of the unit rule {@code rule}, or its broken rule as an error on {@code step}. */
  private <T> T unit(ForwardBody.Step step, Val x, java.util.function.Supplier<T> rule) {
    try {
      return rule.get();
    } catch (RuleError e) {
      throw failed(step, List.of(x), e.rule());
    }
  }

  /** Int argument {@code i} of {@code step}: a number, or a layer element given at the use site. */
  private int integer(ForwardBody.Step step, int i) {
    String t = step.ints().get(i);
    Map<String, Integer> dims = layer.dims();
    return dims.containsKey(t) ? dims.get(t) : Integer.parseInt(t);
  }

  private ShapeSite site(Val... operands) {
    return new ShapeSite(
        site.prefix() + ", in " + forward,
        site.node(),
        "in " + forward,
        Arrays.stream(operands).map(BodyTrace::source).toList());
  }

  private static Source source(Val v) {
    return new Source(v.shape(), v.text(), v.param() != null ? "@Param" : "in the body");
  }

  private Val dot(ForwardBody.Step step, Val x, Val y) {
    TShape out = MatMulOp.dot(x.shape(), y.shape());
    if (out == null) {
      String why = "the last dimension of the left must equal the first of the right";
      TShape a = x.shape();
      TShape b = y.shape();
      if (a.rank() >= 1 && b.rank() == 2 && a.dim(a.rank() - 1) == b.dim(1)) {
        TShape turned = MatMulOp.dot(a, TShape.of(b.dim(1), b.dim(0)));
        why += "; " + x.text() + ".dot(" + y.text() + ".transpose()) would give " + turned;
      }
      throw failed(step, List.of(x, y), why);
    }
    List<String> names = new ArrayList<>(Arrays.asList(x.names()).subList(0, x.shape().rank() - 1));
    names.addAll(Arrays.asList(y.names()).subList(1, y.shape().rank()));
    return made(step, out, names.toArray(String[]::new));
  }

  private Val batchDot(ForwardBody.Step step, Val x, Val y) {
    int r = x.shape().rank();
    if (r < 3 || y.shape().rank() != r) {
      throw failed(
          step, List.of(x, y), "both operands need one rank, 3 or more (a stack of matrices)");
    }
    // The @MatMul unit's rule decides; the words are the body's, as the graph build says them.
    MatMulOp rule = new MatMulOp("batch_dot", false, step.flag());
    TShape out;
    try {
      out = rule.infer(site(x, y)).shape();
    } catch (RuleError e) {
      String why =
          switch (e.message) {
            case MATMUL_BATCH -> "the leading dimensions must be equal";
            case MATMUL_INNER ->
                "the last dimension of the left must equal the "
                    + (step.flag() ? "last" : "second last")
                    + " of the right";
            default -> e.rule();
          };
      throw failed(step, List.of(x, y), why);
    }
    String[] names = Arrays.copyOf(x.names(), r);
    names[r - 1] = y.names()[step.flag() ? r - 2 : r - 1];
    return made(step, out, names);
  }

  /** MXNet's broadcasting as the graph build checks it in a custom layer, names and all. */
  private Val broadcast(ForwardBody.Step step, Val a, Val b) {
    TShape x = a.shape();
    TShape y = b.shape();
    int rank = Math.max(x.rank(), y.rank());
    Broadcast rule = Broadcast.of(leadingOnes(x, rank), leadingOnes(y, rank));
    Val low = x.rank() < y.rank() ? a : b;
    Val high = low == a ? b : a;
    boolean ranksDiffer = x.rank() != y.rank();
    if (rule.problem() == Broadcast.Problem.AXIS) {
      if (ranksDiffer) {
        throw rankError(step, a, b, low, high, false);
      }
      int axis = rule.axis();
      throw failed(
          step,
          List.of(a, b),
          "each pair of trailing dimensions must be equal or 1, but axis "
              + axis
              + " is "
              + size(x.dim(axis))
              + " against "
              + size(y.dim(axis)));
    }
    if (rule.problem() == Broadcast.Problem.RUNS) {
      throw failed(
          step,
          List.of(a, b),
          "the axes broadcast in "
              + rule.runs()
              + " runs, and MXNet's broadcast kernels take at most "
              + Broadcast.MAX_RUNS);
    }
    if (ranksDiffer
        && Broadcast.misnamed(dims(low.shape()), low.names(), dims(high.shape()), high.names())
            >= 0) {
      throw rankError(step, a, b, low, high, true);
    }
    int[] out = rule.shape();
    String[] names = Broadcast.names(dims(x), a.names(), dims(y), b.names());
    return made(step, TShape.of(out), names);
  }

  /**
   * Operands of different rank that MXNet lines up at their last axes, where {@code low}'s axes
   * meet axes of {@code high} they should not ({@code named}: of the same size but another name):
   * reported on {@code low}'s {@code @Param} when it is one, otherwise on the operation.
   */
  private BodyError rankError(
      ForwardBody.Step step, Val a, Val b, Val low, Val high, boolean named) {
    int k = low.shape().rank();
    int n = high.shape().rank();
    String clash = "";
    for (int j = 0; j < k; j++) {
      int h = n - k + j;
      int p = low.shape().dim(j);
      int q = high.shape().dim(h);
      String mine = low.names()[j];
      String theirs = high.names()[h];
      boolean breaks =
          named
              ? p > 1 && p == q && mine != null && theirs != null && !mine.equals(theirs)
              : p != q && p != 1 && q != 1;
      if (breaks) {
        clash =
            (mine == null ? "its axis " + j : mine)
                + " ("
                + size(p)
                + ") would meet axis "
                + h
                + " ("
                + (theirs == null ? "" : theirs + ", ")
                + size(q)
                + ")"
                + (named ? ", which broadcasts only because both are " + p : "");
        break;
      }
    }
    String fix = rankFix(low, high);
    if (low.param() != null) {
      CustomOp.CustomParam p = low.param();
      return BodyError.on(
          p.element(),
          p.mirror(),
          "shape",
          Message.CUSTOM_PARAM_RANK,
          site.prefix(),
          p.name(),
          quoted(p.shape()),
          low.shape(),
          high.text() + " " + high.shape(),
          step.text(),
          clash,
          fix);
    }
    return failed(
        step,
        List.of(a, b),
        "MXNet lines up the last axes of operands of different rank, so " + clash + "; " + fix);
  }

  /** How to give {@code low} the rank of {@code high}, its named axes where {@code high}'s are. */
  private static String rankFix(Val low, Val high) {
    int k = low.shape().rank();
    int n = high.shape().rank();
    int at = Broadcast.lineUp(dims(low.shape()), low.names(), dims(high.shape()), high.names());
    if (at < 0 || at >= n - k) {
      return "give "
          + low.text()
          + " one axis per axis of "
          + high.shape()
          + " after its leading BATCH, 1 where it does not vary";
    }
    Broadcast.Widened w =
        Broadcast.Widened.of(dims(low.shape()), low.names(), dims(high.shape()), at);
    List<String> tokens = w.tokens();
    List<Integer> sizes = w.sizes();
    String where =
        ", which lines "
            + (low.names()[0] == null ? "it" : low.names()[0])
            + " up with axis "
            + at
            + " of "
            + high.text();
    return low.param() != null
        ? "declare it @Param(shape = " + quoted(tokens) + ") (" + new TShape(sizes) + ")" + where
        : "give " + low.text() + " the shape " + new TShape(sizes) + where;
  }

  private BodyError failed(ForwardBody.Step step, List<Val> operands, String why) {
    String shapes = String.join(" and ", operands.stream().map(v -> v.shape().toString()).toList());
    return BodyError.at(
        step.spot(), Message.CUSTOM_BODY_SHAPE, site.prefix(), forward, step.text(), shapes, why);
  }

  private static String[] names(List<String> pattern) {
    return pattern.stream()
        .map(t -> Character.isDigit(t.charAt(0)) ? null : t)
        .toArray(String[]::new);
  }

  private static int[] dims(TShape s) {
    return s.dims().stream().mapToInt(Integer::intValue).toArray();
  }

  private static int[] leadingOnes(TShape s, int rank) {
    int[] d = new int[rank];
    Arrays.fill(d, 1);
    System.arraycopy(dims(s), 0, d, rank - s.rank(), s.rank());
    return d;
  }

  private static String size(int d) {
    return d == TShape.STEPS ? "STEPS" : d < 0 ? "BATCH" : Integer.toString(d);
  }

  /** {@code {"channels", "1", "1"}}: a shape pattern as the user writes it. */
  static String quoted(List<String> tokens) {
    return tokens.stream()
        .map(t -> '"' + t + '"')
        .collect(java.util.stream.Collectors.joining(", ", "{", "}"));
  }
}
