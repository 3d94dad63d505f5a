package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.act;
import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;

/**
 * {@code @Activation}: MXNet's element-wise {@code Activation}.
 *
 * @param activation the function
 * @param slope the slope below zero of a leaky ReLU or the scale of an ELU, where an imported file
 *     sets one other than Kiln's (MXNet's {@code LeakyReLU} {@code slope}); NaN for the function's
 *     own
 */
record ActivationOp(Act activation, double slope) implements Op {
  static final OpReader<Activation> READER =
      OpReader.of(Activation.class, a -> new ActivationOp(a.value(), Double.NaN), "value");

  @Override
  public String annotation() {
    return "Activation";
  }

  @Override
  public String mxnetOp() {
    return Double.isNaN(slope) ? Acts.op(activation) : "LeakyReLU(" + activation.mxnetName() + ")";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    if (activation == Act.NONE) {
      throw site.fail(Message.BAD_ACTIVATION, "value", site.where());
    }
  }

  /** MXNet {@code Activation}: element-wise, the input's shape. */
  @Override
  public Inferred infer(ShapeSite site) {
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        chain("ActivationSpec", "of", act(activation))
            .when(!Double.isNaN(slope), "slope", Args.d(slope))
            .build(),
        x());
  }
}
