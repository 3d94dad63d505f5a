package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.i;

import dev.kiln.annotations.Slice;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @Slice}: MXNet's {@code slice_axis}.
 *
 * @param axis the axis sliced, as written
 * @param begin the first index taken, as written
 * @param end the index after the last taken, as written; {@link Slice#END} for the end
 */
record SliceOp(int axis, int begin, int end) implements Op {
  static final OpReader<Slice> READER =
      OpReader.of(
          Slice.class, s -> new SliceOp(s.axis(), s.begin(), s.end()), "axis", "begin", "end");

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
          site.node().annotationText(),
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
        Args.chain("SliceSpec", "axis", i(axis))
            .when(begin != 0, "begin", i(begin))
            .when(end != Slice.END, "end", i(end))
            .build(),
        Args.x());
  }
}
