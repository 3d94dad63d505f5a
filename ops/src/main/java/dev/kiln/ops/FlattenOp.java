package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * Collapses every dimension after the first ({@code @Flatten}): MXNet's {@code Flatten}. Generated
 * code writes {@code FlattenOp.of()}.
 */
public record FlattenOp() implements LayerOp {
  static final OpReader<Flatten> READER = OpReader.of(Flatten.class, f -> new FlattenOp());

  @Override
  public String annotation() {
    return "Flatten";
  }

  @Override
  public String mxnetOp() {
    return "Flatten";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet {@code FlattenShape}: {@code [d0, prod(d1...)]}. */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.hasFree()) {
      SizeExpr product = SizeExpr.constant(1);
      for (int i = 1; i < s.rank(); i++) {
        product = product.times(s.size(i));
      }
      return Inferred.of(TShape.of(s.dim(0), TShape.size(product)));
    }
    return Inferred.of(TShape.of(s.dim(0), s.rank() == 1 ? 1 : s.product(1)));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // a view
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", chain(FlattenOp.class, "of").build(), x());
  }

  /** The flattening. */
  public static FlattenOp of() {
    return new FlattenOp();
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op("Flatten", Attrs.of(), inputs.get(0));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("Flatten", List.of("flatten"), a -> Mapped.unary(new FlattenOp()))
          .natives(Native.of("Flatten").bf16(Native.Bf16.FOLLOW).keepsChannels(attrs -> true));
}
