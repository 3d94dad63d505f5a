package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.d;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Dropout;
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
 * {@code @Dropout}: MXNet's {@code Dropout}.
 *
 * @param rate the probability of dropping a value in training
 */
record DropoutOp(double rate) implements Op {
  static final OpReader<Dropout> READER =
      OpReader.of(Dropout.class, d -> new DropoutOp(d.rate()), "rate");

  @Override
  public String annotation() {
    return "Dropout";
  }

  @Override
  public String mxnetOp() {
    return "Dropout";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    if (!(rate >= 0 && rate < 1)) {
      throw site.fail(Message.RATE_OUT_OF_RANGE, "rate", site.prefix(), rate);
    }
  }

  /** MXNet {@code Dropout}: the input's shape. */
  @Override
  public Inferred infer(ShapeSite site) {
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return out.perExample(); // training mode; the identity in inference
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", Args.chain("DropoutSpec", "rate", d(rate)).build(), x());
  }
}
