package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.d;

import dev.kiln.annotations.Clip;
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
 * {@code @Clip}: MXNet's {@code clip}.
 *
 * @param min the least value kept
 * @param max the greatest value kept
 */
record ClipOp(double min, double max) implements Op {
  static final OpReader<Clip> READER =
      OpReader.of(Clip.class, c -> new ClipOp(c.min(), c.max()), "min", "max");

  @Override
  public String annotation() {
    return "Clip";
  }

  @Override
  public String mxnetOp() {
    return "clip";
  }

  @Override
  public int arity() {
    return 1;
  }

  /**
   * Both bounds are numbers (an infinity leaves that side open) and {@code min <= max}; MXNet
   * checks neither, and clips every value to {@code max} when {@code min > max}.
   */
  @Override
  public void checkAttributes(AttributeSite site) {
    if (Double.isNaN(min)) {
      throw site.fail(Message.OUT_OF_RANGE, "min", site.prefix(), "min", "a number", min);
    }
    if (Double.isNaN(max)) {
      throw site.fail(Message.OUT_OF_RANGE, "max", site.prefix(), "max", "a number", max);
    }
    if (min > max) {
      throw site.fail(
          Message.OUT_OF_RANGE, "max", site.prefix(), "max", "at least min (" + min + ")", max);
    }
  }

  /** MXNet {@code clip} ({@code ElemwiseShape}): the input's shape. */
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
        "node", Args.chain("ClipSpec", "between", d(min), d(max)).build(), Args.x());
  }
}
