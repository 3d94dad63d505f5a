package dev.kiln.ops;

import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Dropout;
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
 * Dropout ({@code @Dropout}): MXNet's {@code Dropout} with {@code p = rate}, active only in
 * training-mode forward passes, where it zeroes values with probability {@code rate} and scales the
 * rest by {@code 1 / (1 - rate)}. Generated code writes {@code DropoutOp.rate(0.5)}.
 *
 * @param rate the probability of dropping a value in training
 */
public record DropoutOp(double rate) implements LayerOp {
  /** The default rate (MXNet's {@code p}). */
  public static final double RATE = Defaults.decimal(Dropout.class, "rate");

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

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
    return NodeCall.Builder.of("node", Args.chain(DropoutOp.class, "rate", d(rate)).build(), x());
  }

  /** Dropout with probability {@code rate}. */
  public static DropoutOp rate(double rate) {
    return new DropoutOp(rate);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op("Dropout", Attrs.of("p", rate), inputs.get(0));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("Dropout", List.of(), DropoutOp::dropout)
          .natives(Native.of("Dropout").keepsChannels(attrs -> true));

  static Mapped dropout(FileAttrs a) {
    a.ignore("cudnn_off");
    a.require("mode", "training", "Kiln's dropout is active in training only");
    List<Integer> axes = a.tuple("axes", List.of());
    if (!axes.isEmpty()) {
      throw a.unsupported("axes", "Kiln's dropout drops single values");
    }
    return Mapped.unary(new DropoutOp(a.decimal("p", RATE)));
  }
}
