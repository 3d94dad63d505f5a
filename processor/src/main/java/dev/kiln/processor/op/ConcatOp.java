package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.i;

import dev.kiln.annotations.Concat;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.Source;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @Concat}: MXNet's {@code Concat}.
 *
 * @param axis the axis along which the inputs are joined
 */
record ConcatOp(int axis) implements Op {
  static final OpReader<Concat> READER =
      OpReader.of(Concat.class, c -> new ConcatOp(c.axis()), "axis");

  @Override
  public String annotation() {
    return "Concat";
  }

  @Override
  public String mxnetOp() {
    return "Concat";
  }

  @Override
  public int arity() {
    return 2;
  }

  @Override
  public boolean variadic() {
    return true;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The axis is checked against the inputs' rank.
  }

  /**
   * MXNet {@code ConcatShape}: equal rank, equal dimensions except along {@code axis}, where the
   * sizes add up (unknown if any is BATCH).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape first = site.shape();
    for (Source s : site.in()) {
      if (s.shape().rank() != first.rank()) {
        throw site.fail(
            Message.RANK_MISMATCH, null, site.where(), "@Concat", Source.describeAll(site.in()));
      }
    }
    int a = site.axis(axis, site.x());
    List<Integer> out = new ArrayList<>(first.dims());
    int sum = 0;
    for (Source s : site.in()) {
      for (int i = 0; i < first.rank(); i++) {
        if (i != a && s.shape().dim(i) != first.dim(i)) {
          throw site.fail(
              Message.CONCAT_MISMATCH, null, site.where(), axis, a, Source.describeAll(site.in()));
        }
      }
      int d = s.shape().dim(a);
      sum = sum < 0 || d < 0 ? TShape.BATCH : sum + d;
    }
    out.set(a, sum);
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node", Args.chain("ConcatSpec", "axis", i(axis)).build(), new NodeCall.Inputs());
  }
}
