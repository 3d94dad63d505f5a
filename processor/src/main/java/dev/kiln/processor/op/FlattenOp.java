package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Flatten;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;

/** {@code @Flatten}: MXNet's {@code Flatten}. */
record FlattenOp() implements Op {
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

  /** MXNet {@code FlattenShape}: {@code [d0, prod(d1...)]}. */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    return Inferred.of(TShape.of(s.dim(0), s.rank() == 1 ? 1 : s.product(1)));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // a view
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", chain("FlattenSpec", "of").build(), x());
  }
}
