package dev.kiln.ops;

import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Transpose;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A permutation of the axes ({@code @Transpose}): MXNet's {@code transpose}. The processor writes
 * the permutation with non-negative axes, since MXNet 1.9.1 reads no negative ones; none reverses
 * the axes. Generated code writes {@code TransposeOp.axes(0, 2, 1)} or {@code
 * TransposeOp.reverse()}.
 *
 * @param axes the input axis each output axis takes, as written; empty to reverse them
 */
public record TransposeOp(List<Integer> axes) implements LayerOp {
  /** MXNet 1.9.1's {@code transpose} takes at most this many axes. */
  static final int MAX_RANK = 6;

  static final OpReader<Transpose> READER =
      OpReader.of(
          Transpose.class, t -> new TransposeOp(Arrays.stream(t.axes()).boxed().toList()), "axes");

  /** Copies the axes. */
  public TransposeOp {
    axes = List.copyOf(axes);
  }

  @Override
  public String annotation() {
    return "Transpose";
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
   * MXNet {@code TransposeShape}: rank at most 6; output axis {@code i} is input axis {@code
   * axes[i]}, the axes a permutation (MXNet checks only the count and the upper bound, and reads a
   * negative axis out of bounds, so Kiln counts negative ones from the end itself).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() > MAX_RANK) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "@Transpose",
          "1 to " + MAX_RANK,
          "[d0, ...]",
          site.x().describe(),
          "; MXNet 1.9.1 transposes at most " + MAX_RANK + " axes");
    }
    List<Integer> out = new ArrayList<>();
    for (int a : permutation(site)) {
      out.add(s.dim(a));
    }
    return Inferred.of(new TShape(out));
  }

  /** The permutation with non-negative axes, checked against the input's rank. */
  private int[] permutation(ShapeSite site) {
    int r = site.shape().rank();
    int[] p = new int[r];
    if (axes.isEmpty()) {
      for (int i = 0; i < r; i++) {
        p[i] = r - 1 - i;
      }
      return p;
    }
    if (axes.size() != r) {
      throw bad(site, "it lists " + axes.size() + (axes.size() == 1 ? " axis" : " axes"));
    }
    boolean[] seen = new boolean[r];
    for (int i = 0; i < r; i++) {
      int a = axes.get(i);
      if (a < -r || a >= r) {
        throw bad(site, "axis " + a + " is out of range");
      }
      p[i] = a < 0 ? a + r : a;
      if (seen[p[i]]) {
        throw bad(site, "it lists axis " + p[i] + " twice");
      }
      seen[p[i]] = true;
    }
    return p;
  }

  private static RuntimeException bad(ShapeSite site, String reason) {
    int r = site.shape().rank();
    return site.fail(
        Message.BAD_PERMUTATION, "axes", site.prefix(), r, site.x().describe(), r - 1, reason);
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    if (axes.isEmpty()) {
      return NodeCall.Builder.of(
          "node", Args.chain(TransposeOp.class, "reverse").build(), Args.x());
    }
    int r = site.shape().rank();
    int[] p = axes.stream().mapToInt(a -> a < 0 ? a + r : a).toArray();
    return NodeCall.Builder.of(
        "node", Args.chain(TransposeOp.class, "axes", Args.ints(p)).build(), Args.x());
  }

  /** The permutation {@code axes}. */
  public static TransposeOp axes(int... axes) {
    return new TransposeOp(Arrays.stream(axes).boxed().toList());
  }

  /** The axes in reverse order, MXNet's default. */
  public static TransposeOp reverse() {
    return new TransposeOp(List.of());
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (axes.isEmpty()) {
      return scope.op("transpose", Attrs.of(), inputs.get(0));
    }
    int[] a = axes.stream().mapToInt(Integer::intValue).toArray();
    return scope.op("transpose", Attrs.of("axes", Attrs.tuple(a)), inputs.get(0));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT = Unit.of(READER).file("transpose", List.of(), TransposeOp::transpose);

  static Mapped transpose(FileAttrs a) {
    return Mapped.unary(new TransposeOp(a.tuple("axes", List.of())));
  }
}
