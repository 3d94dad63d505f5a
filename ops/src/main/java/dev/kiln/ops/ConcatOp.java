package dev.kiln.ops;

import static dev.kiln.ops.Args.i;

import dev.kiln.annotations.Concat;
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
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * Concatenation along {@code axis} ({@code @Concat}): MXNet's {@code Concat}. Generated code writes
 * {@code ConcatOp.axis(1)}.
 *
 * @param axis the axis along which the inputs are joined
 */
public record ConcatOp(int axis) implements LayerOp {
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
   * sizes add up (unknown if any is unknown). Along the batch axis, where sizes are only known when
   * an executor is bound, the sum is none of the model's {@code BATCH} sizes: refused ({@code
   * ConcatBatch}) unless every size there is fixed.
   */
  /** Free dimensions pass through; along the axis, sizes add up as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

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
    if (a == 0 && site.in().stream().anyMatch(s -> s.shape().dim(0) < 0)) {
      throw site.fail(
          Message.CONCAT_BATCH,
          "axis",
          site.where(),
          axis,
          site.in().size(),
          Source.describeAll(site.in()));
    }
    List<Integer> out = new ArrayList<>(first.dims());
    int sum = 0;
    SizeExpr free = SizeExpr.constant(0);
    boolean anyFree = false;
    for (Source s : site.in()) {
      for (int i = 0; i < first.rank(); i++) {
        if (i != a && s.shape().dim(i) != first.dim(i)) {
          if (ShapeSite.sameFree(first.dim(i), s.shape().dim(i)) == Boolean.FALSE) {
            throw site.unequal(
                "@Concat(axis = " + axis + ")", "every axis but " + a + " equal", i, site.x(), s);
          }
          throw site.fail(
              Message.CONCAT_MISMATCH, null, site.where(), axis, a, Source.describeAll(site.in()));
        }
      }
      int d = s.shape().dim(a);
      anyFree |= TShape.isFree(d);
      free = free.plus(s.shape().size(a));
      sum = sum < 0 || d < 0 ? TShape.BATCH : sum + d;
    }
    out.set(a, anyFree ? TShape.size(free) : sum);
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node", Args.chain(ConcatOp.class, "axis", i(axis)).build(), new NodeCall.Inputs());
  }

  /** Joins along {@code axis}. */
  public static ConcatOp axis(int axis) {
    return new ConcatOp(axis);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    scope.checkAxis("concat", inputs, axis, false);
    return scope.op(
        "Concat", scope.node(), Attrs.of("num_args", inputs.size(), "dim", axis), null, inputs);
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT = Unit.of(READER).file("Concat", List.of("concat"), ConcatOp::concat);

  static Mapped concat(FileAttrs a) {
    int n = a.integer("num_args", 2);
    return Mapped.data(new ConcatOp(a.has("dim") ? a.integer("dim", 1) : 1), n);
  }
}
