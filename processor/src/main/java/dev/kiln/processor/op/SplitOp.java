package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.i;

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
record SplitOp(int outputs, int index, int axis, boolean squeeze) implements Op {
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
        Args.chain("SliceSpec", "axis", i(a))
            .when(index != 0, "begin", i(index * part))
            .then("end", i((index + 1) * part))
            .when(squeeze, "squeeze")
            .build(),
        Args.x());
  }
}
