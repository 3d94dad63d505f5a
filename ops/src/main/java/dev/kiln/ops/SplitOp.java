package dev.kiln.ops;

import static dev.kiln.ops.Args.i;

import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * One output of MXNet's {@code SliceChannel} ({@code split}) in an imported file: part {@code
 * index} of {@code outputs} equal parts along {@code axis}, that axis dropped with {@code squeeze}
 * (each part is then one index thick). A file node of several outputs becomes one node per output
 * the import reads, each MXNet's {@code slice_axis} of its part (then {@code squeeze}), which is
 * what {@code SliceChannel} computes for that output. No annotation makes one: the importer's table
 * ({@link FileOps}) is its registry.
 *
 * @param outputs the number of parts, {@code num_outputs}
 * @param index which part
 * @param axis the axis split, as written
 * @param squeeze whether the axis is dropped, {@code squeeze_axis}
 */
public record SplitOp(int outputs, int index, int axis, boolean squeeze) implements Op {
  @Override
  public String annotation() {
    return "SliceChannel";
  }

  @Override
  public String mxnetOp() {
    return squeeze ? "slice_axis+squeeze" : "slice_axis";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("num_outputs", outputs);
    if (index >= outputs) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          null,
          site.prefix(),
          "the output read",
          "below num_outputs = " + outputs,
          index);
    }
  }

  /**
   * MXNet {@code SliceChannelShape}: the axis's size must be known and divide into {@code outputs}
   * parts; each part has the input's shape with the axis's size divided, and without the axis under
   * {@code squeeze}, which needs parts one index thick.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    int a = site.axis(axis, site.x());
    TShape s = site.shape();
    int size = s.dim(a);
    if (size < 0) {
      throw site.fail(
          Message.SLICE_UNKNOWN_SIZE,
          null,
          site.prefix(),
          a,
          BroadcastOp.size(size),
          site.x().describe());
    }
    if (size % outputs != 0 || (squeeze && size != outputs)) {
      throw site.fail(
          Message.BAD_SLICE,
          null,
          site.prefix(),
          "of " + outputs + " equal parts",
          a,
          site.x().describe(),
          size,
          squeeze
              ? "squeeze_axis needs parts one index thick, so num_outputs = " + size
              : size + " is not a multiple of " + outputs);
    }
    List<Integer> out = new ArrayList<>(s.dims());
    if (squeeze) {
      out.remove(a);
    } else {
      out.set(a, size / outputs);
    }
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    TShape in = site.inputs().get(0);
    int a = axis < 0 ? axis + in.rank() : axis;
    int part = in.dim(a) / outputs;
    return NodeCall.Builder.of(
        "node",
        Args.chain(SliceOp.class, "axis", i(a))
            .when(index != 0, "begin", i(index * part))
            .then("end", i((index + 1) * part))
            .when(squeeze, "squeeze")
            .build(),
        Args.x());
  }

  /** How the operator is read from a symbol file (it has no annotation). */
  static final Unit UNIT = Unit.of().file("SliceChannel", List.of("split"), SplitOp::sliceChannel);

  static Mapped sliceChannel(FileAttrs a) {
    int n = a.integer("num_outputs", 0);
    int axis = a.integer("axis", 1);
    boolean squeeze = a.bool("squeeze_axis", false);
    List<Op> parts = new ArrayList<>();
    for (int i = 0; i < Math.max(1, n); i++) {
      parts.add(new SplitOp(n, i, axis, squeeze));
    }
    return new Mapped(parts.get(0), List.of(Arg.DATA), parts);
  }
}
