package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;
import java.util.OptionalInt;

/**
 * A range of one axis ({@code @Slice}): MXNet's {@code slice_axis}, indices {@code begin} to {@code
 * end} (excluded), negative ones counting from the end. Generated code writes {@code
 * SliceSpec.axis(1).begin(2).end(5)}.
 *
 * @param axis the axis sliced
 * @param begin the first index taken
 * @param end the index after the last taken; empty for the end of the axis
 * @param squeezed whether the axis, one index thick, is then dropped (MXNet's {@code squeeze}): an
 *     imported {@code SliceChannel}'s {@code squeeze_axis}
 */
public record SliceSpec(int axis, int begin, OptionalInt end, boolean squeezed) implements LayerOp {
  /** The whole of {@code axis}, to be narrowed by {@link #begin} and {@link #end}. */
  public static SliceSpec axis(int axis) {
    return new SliceSpec(axis, 0, OptionalInt.empty(), false);
  }

  /** This slice from index {@code begin}. */
  public SliceSpec begin(int begin) {
    return new SliceSpec(axis, begin, end, squeezed);
  }

  /** This slice up to index {@code end}, excluded. */
  public SliceSpec end(int end) {
    return new SliceSpec(axis, begin, OptionalInt.of(end), squeezed);
  }

  /** This slice, one index thick, without its axis ({@code squeeze} after {@code slice_axis}). */
  public SliceSpec squeeze() {
    return new SliceSpec(axis, begin, end, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    String e = end.isPresent() ? Integer.toString(end.getAsInt()) : "None";
    Attrs attrs = Attrs.of("axis", axis, "begin", begin, "end", e);
    if (!squeezed) {
      return scope.op("slice_axis", attrs, inputs.get(0));
    }
    Sym part =
        scope.op(
            "slice_axis", scope.node() + "_part", attrs, List.of("data"), List.of(inputs.get(0)));
    return scope.op("squeeze", Attrs.of("axis", axis), part);
  }
}
