package dev.kiln.processor.op;

import dev.kiln.annotations.Input;
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
 * {@code @Input(shape = ...)}: a variable of the declared shape, fed by the caller.
 *
 * @param shape the declared shape
 */
record InputOp(TShape shape) implements Op {
  static final OpReader<Input> READER =
      OpReader.of(Input.class, i -> new InputOp(TShape.of(i.shape())), "shape");

  @Override
  public String annotation() {
    return "Input";
  }

  @Override
  public String mxnetOp() {
    return "variable";
  }

  @Override
  public int arity() {
    return 0;
  }

  @Override
  public boolean isInput() {
    return true;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    if (shape.rank() == 0) {
      throw site.fail(Message.INPUT_WITHOUT_SHAPE, "shape", site.where());
    }
    for (int i = 0; i < shape.rank(); i++) {
      int d = shape.dim(i);
      if (d == 0 || d < 0 && d != TShape.BATCH && d != TShape.STEPS) {
        throw site.fail(Message.BAD_INPUT_DIM, "shape", site.name(), i, d);
      }
    }
  }

  @Override
  public Inferred infer(ShapeSite site) {
    return Inferred.of(shape);
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0;
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("input", new NodeCall.ShapeOf(site.node()));
  }
}
