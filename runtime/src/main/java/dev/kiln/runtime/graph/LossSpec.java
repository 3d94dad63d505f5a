package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

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
 * metric. Generated code writes {@code LossSpec.l2(784)}.
 *
 * @param kind which loss
 * @param values the values of one example's output, which the loss averages over
 */
public record LossSpec(Kind kind, int values) implements LayerOp {
  /** The loss heads. */
  public enum Kind {
    /** Half the squared error, MXNet's {@code LinearRegressionOutput}. */
    L2,
    /** The absolute error, MXNet's {@code MAERegressionOutput}. */
    L1,
    /** Binary cross-entropy of a sigmoid, MXNet's {@code LogisticRegressionOutput}. */
    LOGISTIC,
    /** The node's own loss values, MXNet's {@code MakeLoss}. */
    LOSS
  }

  /** Checks the count. */
  public LossSpec {
    if (values < 1) {
      throw new IllegalArgumentException("a loss averages over at least one value, got " + values);
    }
  }

  /** Half the squared error over {@code values} values an example. */
  public static LossSpec l2(int values) {
    return new LossSpec(Kind.L2, values);
  }

  /** The absolute error over {@code values} values an example. */
  public static LossSpec l1(int values) {
    return new LossSpec(Kind.L1, values);
  }

  /** The binary cross-entropy over {@code values} values an example. */
  public static LossSpec logistic(int values) {
    return new LossSpec(Kind.LOGISTIC, values);
  }

  /** The node's own loss, {@code values} values (1) an example. */
  public static LossSpec loss(int values) {
    return new LossSpec(Kind.LOSS, values);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    if (!scope.training()) {
      return scope.op(kind == Kind.LOGISTIC ? "sigmoid" : "_copy", Attrs.of(), x);
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
}
