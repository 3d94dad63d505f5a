package dev.kiln.ops;

import static dev.kiln.ops.Args.i;

import dev.kiln.annotations.Slice;
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
import java.util.ArrayList;
import java.util.List;

/**
 * A range of one axis ({@code @Slice}): MXNet's {@code slice_axis}, indices {@code begin} to {@code
 * end} (excluded), negative ones counting from the end. Generated code writes {@code
 * SliceOp.axis(1).begin(2).end(5)}.
 *
 * @param axis the axis sliced, as written
 * @param begin the first index taken, as written
 * @param end the index after the last taken, as written; {@link Slice#END} for the end
 */
public record SliceOp(int axis, int begin, int end, boolean squeezed) implements LayerOp {
  static final OpReader<Slice> READER =
      OpReader.of(
          Slice.class,
          s -> new SliceOp(s.axis(), s.begin(), s.end(), false),
          "axis",
          "begin",
          "end");

  @Override
  public String annotation() {
    return "Slice";
  }

  @Override
  public String mxnetOp() {
    return "slice_axis";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The indices are checked against the axis's size.
  }

  /**
   * MXNet {@code SliceAxisShape} ({@code GetSliceAxisParams}): with negative indices counted from
   * the end of the axis's size {@code S}, {@code 0 <= begin < end <= S}; the axis becomes {@code
   * end - begin}. The size must be known: MXNet checks the indices only when it is.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    int a = site.axis(axis, site.x());
    TShape s = site.shape();
    int size = s.dim(a);
    if (size == TShape.BATCH) {
      throw site.fail(
          Message.ACROSS_BATCH,
          "axis",
          site.where(),
          site.annotationText(),
          "slice",
          a,
          site.x().describe(),
          "slice another axis (a slice of the batch keeps some examples and drops the others, "
              + "and only for some batch sizes)");
    }
    if (size < 0) {
      throw site.fail(
          Message.SLICE_UNKNOWN_SIZE,
          "axis",
          site.prefix(),
          a,
          BroadcastOp.size(size),
          site.x().describe());
    }
    int b = begin < 0 ? begin + size : begin;
    int e = end == Slice.END ? size : end < 0 ? end + size : end;
    if (b < 0) {
      throw bad(site, a, size, "begin", "begin " + begin + " counts back past the start");
    }
    if (e > size) {
      throw bad(site, a, size, "end", "end " + end + " is past the end");
    }
    if (b >= e) {
      String counted =
          begin < 0 || end < 0 ? " (" + b + " to " + e + " counted from the start)" : "";
      throw bad(site, a, size, "end", "the range is empty" + counted);
    }
    List<Integer> out = new ArrayList<>(s.dims());
    out.set(a, e - b);
    return Inferred.of(new TShape(out));
  }

  private RuntimeException bad(ShapeSite site, int a, int size, String attribute, String reason) {
    String range = "[" + begin + ", " + (end == Slice.END ? "end" : Integer.toString(end)) + ")";
    return site.fail(
        Message.BAD_SLICE, attribute, site.prefix(), range, a, site.x().describe(), size, reason);
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        Args.chain(SliceOp.class, "axis", i(axis))
            .when(begin != 0, "begin", i(begin))
            .when(end != Slice.END, "end", i(end))
            .build(),
        Args.x());
  }

  /** The whole of {@code axis}, to be narrowed by {@link #begin} and {@link #end}. */
  public static SliceOp axis(int axis) {
    return new SliceOp(axis, 0, Slice.END, false);
  }

  /** This slice from index {@code begin}. */
  public SliceOp begin(int begin) {
    return new SliceOp(axis, begin, end, squeezed);
  }

  /** This slice up to index {@code end}, excluded. */
  public SliceOp end(int end) {
    return new SliceOp(axis, begin, end, squeezed);
  }

  /** This slice, one index thick, without its axis ({@code squeeze} after {@code slice_axis}). */
  public SliceOp squeeze() {
    return new SliceOp(axis, begin, end, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    String e = end == Slice.END ? "None" : Integer.toString(end);
    Attrs attrs = Attrs.of("axis", axis, "begin", begin, "end", e);
    if (!squeezed) {
      return scope.op("slice_axis", attrs, inputs.get(0));
    }
    Sym part =
        scope.op(
            "slice_axis", scope.node() + "_part", attrs, List.of("data"), List.of(inputs.get(0)));
    return scope.op("squeeze", Attrs.of("axis", axis), part);
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT = Unit.of(READER).file("slice_axis", List.of(), SliceOp::sliceAxis);

  static Mapped sliceAxis(FileAttrs a) {
    int end = a.string("end", "None").equals("None") ? Slice.END : a.integer("end", Slice.END);
    return Mapped.unary(new SliceOp(a.integer("axis", 0), a.integer("begin", 0), end, false));
  }
}
