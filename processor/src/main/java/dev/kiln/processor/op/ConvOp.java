package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.act;
import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.ints;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv1D;
import dev.kiln.annotations.Conv2D;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ParamInfo;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code @Conv1D} and {@code @Conv2D}: MXNet's {@code Convolution} over {@code [N, C, spatial...]}
 * (one or two spatial dimensions), then the activation unless {@code Act.NONE}. Window attributes
 * hold one value (for every spatial dimension) or one per dimension, as written.
 *
 * @param spatial the spatial dimensions: 1 or 2
 * @param filters output channels
 * @param kernel window size
 * @param stride window step
 * @param pad zeros added on each side
 * @param dilation spacing of the window's taps
 * @param groups channel groups
 * @param activation applied after the layer, or {@code Act.NONE}
 * @param noBias whether the layer has no bias
 */
record ConvOp(
    int spatial,
    int filters,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    List<Integer> dilation,
    int groups,
    Act activation,
    boolean noBias)
    implements Op {
  static final OpReader<Conv1D> CONV1D_READER =
      OpReader.of(
          Conv1D.class,
          c ->
              new ConvOp(
                  1,
                  c.filters(),
                  List.of(c.kernel()),
                  List.of(c.stride()),
                  List.of(c.pad()),
                  List.of(c.dilation()),
                  c.groups(),
                  c.activation(),
                  c.noBias()),
          "filters",
          "kernel",
          "stride",
          "pad",
          "dilation",
          "groups",
          "activation",
          "noBias");

  static final OpReader<Conv2D> CONV2D_READER =
      OpReader.of(
          Conv2D.class,
          c ->
              new ConvOp(
                  2,
                  c.filters(),
                  list(c.kernel()),
                  list(c.stride()),
                  list(c.pad()),
                  list(c.dilation()),
                  c.groups(),
                  c.activation(),
                  c.noBias()),
          "filters",
          "kernel",
          "stride",
          "pad",
          "dilation",
          "groups",
          "activation",
          "noBias");

  /** Copies the window attributes. */
  ConvOp {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
    dilation = List.copyOf(dilation);
  }

  static List<Integer> list(int[] values) {
    return Arrays.stream(values).boxed().toList();
  }

  @Override
  public String annotation() {
    return spatial == 1 ? "Conv1D" : "Conv2D";
  }

  @Override
  public String mxnetOp() {
    return activation == Act.NONE ? "Convolution" : "Convolution+" + Acts.op(activation);
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("filters", filters);
    site.window("kernel", kernel, spatial, true);
    site.window("stride", stride, spatial, true);
    site.window("pad", pad, spatial, false);
    site.window("dilation", dilation, spatial, true);
    site.positive("groups", groups);
  }

  /**
   * MXNet {@code ConvolutionShape} (channels first): weight {@code [filters, C, k...]}, bias {@code
   * [filters]}, output {@code [N, filters, out...]} with {@code out = (size + 2p - (d(k-1)+1)) / s
   * + 1} (integer division) per spatial dimension, and the dilated kernel must fit the padded
   * input.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    String layer = "@" + annotation();
    site.requireRank(layer, 2 + spatial, spatial == 1 ? "[N, C, W]" : "[N, C, H, W]");
    int channels = Window.channels(site, layer, groups, filters);
    int[] k = Window.expand(kernel, spatial);
    int[] st = Window.expand(stride, spatial);
    int[] p = Window.expand(pad, spatial);
    int[] d = Window.expand(dilation, spatial);
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), filters));
    List<Integer> weight = new ArrayList<>(List.of(filters, channels / groups));
    for (int axis = 0; axis < spatial; axis++) {
      int span = d[axis] * (k[axis] - 1) + 1;
      String how =
          d[axis] == 1 ? "kernel " + k[axis] : "kernel " + k[axis] + " dilated by " + d[axis];
      out.add(Window.out(site, axis, spatial, span, how, st[axis], p[axis]));
      weight.add(k[axis]);
    }
    List<ParamInfo> params = new ArrayList<>();
    params.add(site.param(ParamRole.WEIGHT, new TShape(weight)));
    if (!noBias) {
      params.add(site.param(ParamRole.BIAS, TShape.of(filters)));
    }
    return new Inferred(new TShape(out), params, List.of());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    long macs = out.perExample() * (in.get(0).dim(1) / groups);
    for (int k : Window.expand(kernel, spatial)) {
      macs *= k;
    }
    long outElems = out.perExample();
    return 2 * macs + (noBias ? 0 : outElems) + (activation == Act.NONE ? 0 : outElems);
  }

  @Override
  public NodeCall call(CallSite site) {
    int[] st = Window.expand(stride, spatial);
    int[] p = Window.expand(pad, spatial);
    int[] d = Window.expand(dilation, spatial);
    Args.Chain spec =
        chain("ConvSpec", "filters", i(filters))
            .then("kernel", ints(Window.expand(kernel, spatial)))
            .when(!Window.all(st, 1), "stride", ints(st))
            .when(!Window.all(p, 0), "pad", ints(p))
            .when(!Window.all(d, 1), "dilation", ints(d))
            .when(groups != 1, "groups", i(groups))
            .when(activation != Act.NONE, "activation", act(activation))
            .when(noBias, "withoutBias");
    return NodeCall.Builder.of("node", spec.build(), x());
  }
}
