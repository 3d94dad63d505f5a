package dev.kiln.ops;

import static dev.kiln.ops.Args.d;

import dev.kiln.annotations.Clip;
import dev.kiln.annotations.Sym;
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

/**
 * Every value limited to {@code [min, max]} ({@code @Clip}): MXNet's {@code clip}, which holds the
 * bounds as float32. Generated code writes {@code ClipOp.between(-1.0, 1.0)}.
 *
 * @param min the least value kept
 * @param max the greatest value kept
 */
public record ClipOp(double min, double max) implements LayerOp {
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

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
        "node", Args.chain(ClipOp.class, "between", d(min), d(max)).build(), Args.x());
  }

  /** Values limited to {@code [min, max]}. */
  public static ClipOp between(double min, double max) {
    return new ClipOp(min, max);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op("clip", Attrs.of("a_min", min, "a_max", max), inputs.get(0));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT = Unit.of(READER).file("clip", List.of(), ClipOp::clip);

  static Mapped clip(FileAttrs a) {
    return Mapped.unary(new ClipOp(a.decimal("a_min", Double.NaN), a.decimal("a_max", Double.NaN)));
  }
}
