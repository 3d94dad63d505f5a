package dev.kiln.ops;

import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * MXNet's {@code SwapAxis} ({@code swapaxes}) in an imported file: axes {@code dim1} and {@code
 * dim2} exchanged, as a file swaps a batch-first sequence to the time-major one its {@code RNN}
 * reads, and back. Emitted as {@code @Transpose}'s unit with the permutation that swaps the two
 * (the same values). No annotation makes one: the importer's table ({@link FileOps}) is its
 * registry.
 *
 * @param dim1 one axis, negative from the end
 * @param dim2 the other
 */
public record SwapOp(int dim1, int dim2) implements Op {
  @Override
  public String annotation() {
    return "SwapAxis";
  }

  @Override
  public String mxnetOp() {
    return "transpose";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The axes are checked against the input's rank.
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code SwapAxisShape}: both axes in range (negative from the end); the input's shape with
   * the two exchanged.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    List<Integer> out = new ArrayList<>(s.dims());
    int[] p = permutation(site);
    for (int i = 0; i < p.length; i++) {
      out.set(i, s.dim(p[i]));
    }
    return Inferred.of(new TShape(out));
  }

  /** The permutation that swaps the two axes (each checked by {@link ShapeSite#axis}). */
  private int[] permutation(ShapeSite site) {
    int a = site.axis(dim1, site.x());
    int b = site.axis(dim2, site.x());
    int[] p = new int[site.shape().rank()];
    for (int i = 0; i < p.length; i++) {
      p[i] = i == a ? b : i == b ? a : i;
    }
    return p;
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    int r = site.shape().rank();
    int a = dim1 < 0 ? dim1 + r : dim1;
    int b = dim2 < 0 ? dim2 + r : dim2;
    int[] p = new int[r];
    for (int i = 0; i < r; i++) {
      p[i] = i == a ? b : i == b ? a : i;
    }
    return NodeCall.Builder.of(
        "node", Args.chain(TransposeOp.class, "axes", Args.ints(p)).build(), Args.x());
  }

  /** How the operator is read from a symbol file (it has no annotation). */
  static final Unit UNIT =
      Unit.of()
          .file(
              "SwapAxis",
              List.of("swapaxes"),
              a -> Mapped.unary(new SwapOp(a.integer("dim1", 0), a.integer("dim2", 0))));
}
