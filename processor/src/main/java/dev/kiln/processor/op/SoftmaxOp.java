package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Softmax;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code @Softmax}: MXNet's {@code softmax}; as a classifier's head, {@code SoftmaxOutput} in
 * classifier training.
 *
 * @param axis the axis normalised over
 */
record SoftmaxOp(int axis) implements Op {
  static final OpReader<Softmax> READER =
      OpReader.of(Softmax.class, s -> new SoftmaxOp(s.axis()), "axis");

  @Override
  public String annotation() {
    return "Softmax";
  }

  @Override
  public String mxnetOp() {
    return "softmax";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public OptionalInt softmaxAxis() {
    return OptionalInt.of(axis);
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The axis is checked against the input's rank.
  }

  /** MXNet {@code softmax}: the input's shape, along an axis the input has. */
  @Override
  public Inferred infer(ShapeSite site) {
    site.axis(axis, site.x());
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 3 * out.perExample(); // exponent, sum and division per element
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        chain("SoftmaxSpec", "axis", i(axis)).when(site.classifierHead(), "classifierHead").build(),
        x());
  }
}
