package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.L1Loss;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.LogisticLoss;
import dev.kiln.annotations.Loss;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.Optional;

/**
 * A loss head ({@code @L2Loss}, {@code @L1Loss}, {@code @LogisticLoss}, {@code @Loss}). In a
 * model's own graph it is what the head outputs: the prediction ({@code _copy} of its input), the
 * probabilities ({@code sigmoid}) or the loss values ({@code _copy}). In the graph built for
 * training ({@link NodeScope#training()}) it is MXNet's {@code MakeLoss} over the loss of every
 * value, against the label variable {@code <node>_label} (the targets, shaped like the output):
 * {@code square(x - t)}, {@code abs(x - t)}, {@code softrelu(x) - x·t} (the binary cross-entropy of
 * the logits {@code x}, exact for large {@code |x|}), or the node's own loss values. {@code
 * MakeLoss} back-propagates {@code grad_scale} divided by the batch size ({@code normalization
 * batch}), so with {@code grad_scale = k / values} the gradient is that of {@code k} times the mean
 * over an example's {@code values} values, averaged over the batch: {@code k = 1/2} for the squared
 * error (MXNet's {@code LinearRegressionOutput} and Gluon's {@code L2Loss}), 1 otherwise. The
 * training graph's output is the per-value loss, from which the trainer computes the loss and the
 * metric. Generated code writes {@code LossOp.l2(784)}.
 *
 * @param kind which loss
 * @param values the values of one example's output, which the loss averages over; 0 for a head read
 *     from its annotation, whose count the processor takes from its input's shape
 */
public record LossOp(Kind kind, int values) implements LayerOp {
  /** The loss heads: their annotations, MXNet's operators of the same loss, the unit's factory. */
  public enum Kind {
    /** Half the squared error, MXNet's {@code LinearRegressionOutput}. */
    L2("L2Loss", "LinearRegressionOutput", "l2"),
    /** The absolute error, MXNet's {@code MAERegressionOutput}. */
    L1("L1Loss", "MAERegressionOutput", "l1"),
    /** Binary cross-entropy of a sigmoid, MXNet's {@code LogisticRegressionOutput}. */
    LOGISTIC("LogisticLoss", "LogisticRegressionOutput", "logistic"),
    /** The node's own loss values, MXNet's {@code MakeLoss}. */
    LOSS("Loss", "MakeLoss", "loss");

    /** The annotation's simple name, e.g. {@code L2Loss}. */
    public final String annotation;

    /**
     * The MXNet operator of a symbol file that is this head, e.g. {@code LinearRegressionOutput}.
     */
    public final String mxnet;

    final String factory;

    Kind(String annotation, String mxnet, String factory) {
      this.annotation = annotation;
      this.mxnet = mxnet;
      this.factory = factory;
    }
  }

  static final OpReader<L2Loss> L2_READER = OpReader.of(L2Loss.class, a -> l2(0));

  static final OpReader<L1Loss> L1_READER = OpReader.of(L1Loss.class, a -> l1(0));

  static final OpReader<LogisticLoss> LOGISTIC_READER =
      OpReader.of(LogisticLoss.class, a -> logistic(0));

  static final OpReader<Loss> LOSS_READER = OpReader.of(Loss.class, a -> loss(0));

  /** Checks the count. */
  public LossOp {
    if (values < 0) {
      throw new IllegalArgumentException("a loss averages over at least one value, got " + values);
    }
  }

  /** Half the squared error over {@code values} values an example. */
  public static LossOp l2(int values) {
    return new LossOp(Kind.L2, values);
  }

  /** The absolute error over {@code values} values an example. */
  public static LossOp l1(int values) {
    return new LossOp(Kind.L1, values);
  }

  /** The binary cross-entropy over {@code values} values an example. */
  public static LossOp logistic(int values) {
    return new LossOp(Kind.LOGISTIC, values);
  }

  /** The node's own loss, {@code values} values (1) an example. */
  public static LossOp loss(int values) {
    return new LossOp(Kind.LOSS, values);
  }

  @Override
  public String annotation() {
    return kind.annotation;
  }

  @Override
  public String mxnetOp() {
    return kind.mxnet;
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public Optional<Kind> lossHead() {
    return Optional.of(kind);
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /**
   * The input's shape, which must be {@code BATCH} and then known sizes; {@code @Loss}'s must be
   * one value per example.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    boolean known = s.rank() >= 1 && s.dim(0) == TShape.BATCH;
    for (int d = 1; d < s.rank(); d++) {
      known &= s.dim(d) > 0;
    }
    if (!known) {
      String hint =
          s.rank() >= 1 && s.dim(0) != TShape.BATCH
              ? "; its first dimension is not BATCH, so the model's input most likely lacks it: "
                  + "declare the input's shape with BATCH first, e.g. @Input(shape = {BATCH, ...})"
              : "";
      throw site.fail(Message.LOSS_SHAPE, null, site.where(), site.x().describe(), hint);
    }
    if (kind == Kind.LOSS && s.perExample() != 1) {
      throw site.fail(Message.LOSS_NOT_SCALAR, null, site.where(), site.x().describe());
    }
    return Inferred.of(s);
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return kind == Kind.LOGISTIC ? 4 * out.perExample() : out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node", chain(LossOp.class, kind.factory, i((int) site.shape().perExample())).build(), x());
  }

  /**
   * @throws IllegalArgumentException for a head whose count of values is not set
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    if (!scope.training()) {
      return scope.op(kind == Kind.LOGISTIC ? "sigmoid" : "_copy", Attrs.of(), x);
    }
    if (values < 1) {
      throw new IllegalArgumentException(
          scope.source() + ": a loss averages over at least one value, got " + values);
    }
    String node = scope.node();
    Sym perValue =
        switch (kind) {
          case L2 -> unary(scope, "square", error(scope, x));
          case L1 -> unary(scope, "abs", error(scope, x));
          case LOGISTIC ->
              binary(
                  scope,
                  "elemwise_sub",
                  node + "_crossentropy",
                  scope.op(
                      "Activation",
                      node + "_softrelu",
                      Attrs.of("act_type", "softrelu"),
                      List.of("data"),
                      List.of(x)),
                  binary(scope, "elemwise_mul", node + "_logit_target", x, scope.label()));
          case LOSS -> x;
        };
    double scale = (kind == Kind.L2 ? 0.5 : 1.0) / values;
    return scope.op(
        "MakeLoss",
        node,
        Attrs.of("grad_scale", scale, "normalization", "batch"),
        List.of("data"),
        List.of(perValue));
  }

  private static Sym error(NodeScope scope, Sym x) {
    return binary(scope, "elemwise_sub", scope.node() + "_error", x, scope.label());
  }

  private static Sym unary(NodeScope scope, String op, Sym x) {
    return scope.op(op, scope.node() + "_" + op, Attrs.of(), List.of("data"), List.of(x));
  }

  private static Sym binary(NodeScope scope, String op, String name, Sym a, Sym b) {
    return scope.op(op, name, Attrs.of(), List.of("lhs", "rhs"), List.of(a, b));
  }

  /** How the layer is read: its annotations and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(L2_READER, L1_READER, LOGISTIC_READER, LOSS_READER)
          .file("LinearRegressionOutput", List.of(), a -> regression(a, Kind.L2))
          .file("MAERegressionOutput", List.of(), a -> regression(a, Kind.L1))
          .file("LogisticRegressionOutput", List.of(), a -> regression(a, Kind.LOGISTIC));

  /** A regression head: the loss head whose inference output is the same. */
  static Mapped regression(FileAttrs a, LossOp.Kind kind) {
    a.ignore("grad_scale");
    return new Mapped(new LossOp(kind, 0), List.of(Arg.DATA, Arg.LABEL));
  }
}
