package dev.kiln.ops;

import dev.kiln.annotations.Input;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * {@code @Input(shape = ...)}: a variable of the declared shape, fed by the caller.
 *
 * @param shape the declared shape
 */
public record InputOp(TShape shape) implements Op {
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
  public boolean takesFreeDims() {
    return true;
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
      if (d == 0 || d < 0 && d != TShape.BATCH && d != TShape.STEPS && !TShape.isPlaceholder(d)) {
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

  /** How the layer is read: its annotation. */
  static final Unit UNIT = Unit.of(READER);
}
