package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.ints;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Sym;
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
import java.util.List;

/**
 * A tensor repeated whole along each axis, or stretched from size 1 to a size: MXNet's {@code tile}
 * ({@code reps}, one per axis) or {@code broadcast_to} ({@code shape}, 0 keeping an axis). Only
 * imports make it (ONNX {@code Tile}, {@code Expand}); no annotation declares it. Generated code
 * writes {@code TileOp.repeat(1, 2, 3)} or {@code TileOp.expand(0, 4, 3)}.
 *
 * @param broadcast whether it stretches axes of size 1 ({@code broadcast_to}) rather than repeats
 * @param sizes the repeats per axis, or the size per axis (0 keeps the input's)
 */
public record TileOp(boolean broadcast, List<Integer> sizes) implements LayerOp {
  /** Copies the sizes. */
  public TileOp {
    sizes = List.copyOf(sizes);
  }

  @Override
  public String annotation() {
    return broadcast ? "Expand" : "Tile";
  }

  @Override
  public String mxnetOp() {
    return broadcast ? "broadcast_to" : "tile";
  }

  @Override
  public int arity() {
    return 1;
  }

  /** Repeats are positive; sizes are positive or 0. */
  @Override
  public void checkAttributes(AttributeSite site) {
    for (int s : sizes) {
      if (broadcast ? s < 0 : s < 1) {
        throw site.fail(
            Message.OUT_OF_RANGE,
            null,
            site.prefix(),
            broadcast ? "each size" : "each repeat",
            broadcast ? "0 (kept) or positive" : "positive",
            s);
      }
    }
  }

  /**
   * MXNet {@code TileOpShape} (each axis times its repeat) or {@code BroadcastToShape} (an axis of
   * size 1 to the size given, 0 keeping it); one entry per axis; the batch neither repeated nor
   * stretched.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (sizes.size() != s.rank()) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          broadcast ? "broadcast_to" : "tile",
          Integer.toString(sizes.size()),
          sizes.toString(),
          site.x().describe(),
          "");
    }
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < s.rank(); k++) {
      int d = s.dim(k);
      int n = sizes.get(k);
      boolean keeps = broadcast ? n == 0 || n == d : n == 1;
      if (keeps) {
        out.add(d);
      } else if (d == TShape.BATCH || d < 0) {
        throw site.fail(
            Message.ACROSS_BATCH,
            null,
            site.where(),
            site.annotationText(),
            broadcast ? "stretch" : "repeat",
            k,
            site.x().describe(),
            "keep that axis as it is");
      } else if (broadcast && d != 1) {
        throw site.fail(
            Message.OUT_OF_RANGE,
            null,
            site.prefix(),
            "axis " + k + " of " + site.x().describe() + ", stretched to " + n + ",",
            "1 or " + n,
            d);
      } else {
        out.add(broadcast ? n : d * n);
      }
    }
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    int[] v = sizes.stream().mapToInt(Integer::intValue).toArray();
    return NodeCall.Builder.of(
        "node", chain(TileOp.class, broadcast ? "expand" : "repeat", ints(v)).build(), x());
  }

  /** The input repeated {@code reps[k]} times along axis {@code k}. */
  public static TileOp repeat(int... reps) {
    return new TileOp(false, Window.of(reps));
  }

  /** The input's axes of size 1 stretched to {@code sizes} (0 keeps an axis). */
  public static TileOp expand(int... sizes) {
    return new TileOp(true, Window.of(sizes));
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    int[] v = sizes.stream().mapToInt(Integer::intValue).toArray();
    return broadcast
        ? scope.op("broadcast_to", Attrs.of("shape", Attrs.tuple(v)), inputs.get(0))
        : scope.op("tile", Attrs.of("reps", Attrs.tuple(v)), inputs.get(0));
  }

  /** Read only from imports: no annotation, no symbol-file operator. */
  static final Unit UNIT = Unit.of();
}
