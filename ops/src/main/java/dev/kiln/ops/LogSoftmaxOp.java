package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * The logarithm of a softmax along {@code axis}: MXNet's {@code log_softmax}, computed in one
 * stable step. Only imports make it (an ONNX {@code LogSoftmax}); no annotation declares it.
 * Generated code writes {@code LogSoftmaxOp.axis(-1)}.
 *
 * @param axis the axis normalised over
 */
public record LogSoftmaxOp(int axis) implements LayerOp {
  @Override
  public String annotation() {
    return "LogSoftmax";
  }

  @Override
  public String mxnetOp() {
    return "log_softmax";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The axis is checked against the input's rank.
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet {@code log_softmax}: the input's shape, along an axis the input has. */
  @Override
  public Inferred infer(ShapeSite site) {
    site.axis(axis, site.x());
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 3 * out.perExample(); // exponent, sum and logarithm per element
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", chain(LogSoftmaxOp.class, "axis", i(axis)).build(), x());
  }

  /** A log-softmax along {@code axis}. */
  public static LogSoftmaxOp axis(int axis) {
    return new LogSoftmaxOp(axis);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    scope.checkAxis("log_softmax", List.of(x), axis, false);
    return scope.op("log_softmax", Attrs.of("axis", axis), x);
  }

  /** Read only from imports: no annotation, no symbol-file operator. */
  static final Unit UNIT = Unit.of();
}
