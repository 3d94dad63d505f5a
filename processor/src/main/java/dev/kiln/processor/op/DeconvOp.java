package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.act;
import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.ints;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Deconv2D;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ParamInfo;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @Deconv2D}: MXNet's {@code Deconvolution} (a transposed convolution) over {@code [N, C, H,
 * W]}, then the activation unless {@code Act.NONE}.
 *
 * @param filters output channels
 * @param kernel window size
 * @param stride step between the input's positions in the output
 * @param pad rows and columns cut from each border
 * @param outputPad rows and columns added at the end (MXNet's {@code adj})
 * @param dilation spacing of the window's taps
 * @param groups channel groups
 * @param activation applied after the layer, or {@code Act.NONE}
 * @param noBias whether the layer has no bias
 */
record DeconvOp(
    int filters,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    List<Integer> outputPad,
    List<Integer> dilation,
    int groups,
    Act activation,
    boolean noBias)
    implements Op {
  private static final int SPATIAL = 2;

  static final OpReader<Deconv2D> READER =
      OpReader.of(
          Deconv2D.class,
          c ->
              new DeconvOp(
                  c.filters(),
                  ConvOp.list(c.kernel()),
                  ConvOp.list(c.stride()),
                  ConvOp.list(c.pad()),
                  ConvOp.list(c.outputPad()),
                  ConvOp.list(c.dilation()),
                  c.groups(),
                  c.activation(),
                  c.noBias()),
          "filters",
          "kernel",
          "stride",
          "pad",
          "outputPad",
          "dilation",
          "groups",
          "activation",
          "noBias");

  /** Copies the window attributes. */
  DeconvOp {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
    outputPad = List.copyOf(outputPad);
    dilation = List.copyOf(dilation);
  }

  @Override
  public String annotation() {
    return "Deconv2D";
  }

  @Override
  public String mxnetOp() {
    return activation == Act.NONE ? "Deconvolution" : "Deconvolution+" + Acts.op(activation);
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("filters", filters);
    site.window("kernel", kernel, SPATIAL, true);
    site.window("stride", stride, SPATIAL, true);
    site.window("pad", pad, SPATIAL, false);
    site.window("outputPad", outputPad, SPATIAL, false);
    site.window("dilation", dilation, SPATIAL, true);
    site.positive("groups", groups);
    if (filters / groups == 1 && !Window.all(Window.expand(dilation, SPATIAL), 1)) {
      throw site.fail(Message.DILATED_ONE_FILTER, "dilation", site.prefix(), filters, groups);
    }
    int[] st = Window.expand(stride, SPATIAL);
    int[] adj = Window.expand(outputPad, SPATIAL);
    for (int axis = 0; axis < SPATIAL; axis++) {
      if (adj[axis] >= st[axis]) {
        throw site.fail(
            Message.OUTPUT_PAD_TOO_LARGE,
            "outputPad",
            site.prefix(),
            adj[axis],
            st[axis],
            Window.axisName(axis, SPATIAL));
      }
    }
  }

  /**
   * MXNet {@code DeconvolutionShape}: weight {@code [C, filters / groups, kh, kw]}, bias {@code
   * [filters]}, output {@code [N, filters, H', W']} with {@code H' = s(H - 1) + d(k - 1) + 1 - 2p +
   * adj} per spatial dimension, which must be positive.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    site.requireRank("@Deconv2D", 4, "[N, C, H, W]");
    int channels = Window.channels(site, "@Deconv2D", groups, filters);
    int[] k = Window.expand(kernel, SPATIAL);
    int[] st = Window.expand(stride, SPATIAL);
    int[] p = Window.expand(pad, SPATIAL);
    int[] adj = Window.expand(outputPad, SPATIAL);
    int[] d = Window.expand(dilation, SPATIAL);
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), filters));
    List<Integer> weight = new ArrayList<>(List.of(channels, filters / groups));
    for (int axis = 0; axis < SPATIAL; axis++) {
      int size = s.dim(2 + axis);
      weight.add(k[axis]);
      if (size < 0) {
        out.add(TShape.BATCH);
        continue;
      }
      int span = d[axis] * (k[axis] - 1) + 1;
      int o = st[axis] * (size - 1) + span - 2 * p[axis] + adj[axis];
      if (o <= 0) {
        String how =
            st[axis] + " * (" + size + " - 1) + " + span + " - 2 * " + p[axis] + " + " + adj[axis];
        throw site.fail(
            Message.EMPTY_OUTPUT,
            "pad",
            site.where(),
            o,
            Window.axisName(axis, SPATIAL),
            site.x().describe(),
            how);
      }
      out.add(o);
    }
    List<ParamInfo> params = new ArrayList<>();
    params.add(site.param(ParamRole.WEIGHT, new TShape(weight)));
    if (!noBias) {
      params.add(site.param(ParamRole.BIAS, TShape.of(filters)));
    }
    return new Inferred(new TShape(out), params, List.of());
  }

  /** Each input value meets {@code filters / groups x kh x kw} weights: one MAC each. */
  @Override
  public long flops(List<TShape> in, TShape out) {
    long macs = in.get(0).perExample() * (filters / groups);
    for (int k : Window.expand(kernel, SPATIAL)) {
      macs *= k;
    }
    long outElems = out.perExample();
    return 2 * macs + (noBias ? 0 : outElems) + (activation == Act.NONE ? 0 : outElems);
  }

  @Override
  public NodeCall call(CallSite site) {
    int[] st = Window.expand(stride, SPATIAL);
    int[] p = Window.expand(pad, SPATIAL);
    int[] adj = Window.expand(outputPad, SPATIAL);
    int[] d = Window.expand(dilation, SPATIAL);
    Args.Chain spec =
        chain("DeconvSpec", "filters", i(filters))
            .then("kernel", ints(Window.expand(kernel, SPATIAL)))
            .when(!Window.all(st, 1), "stride", ints(st))
            .when(!Window.all(p, 0), "pad", ints(p))
            .when(!Window.all(adj, 0), "outputPad", ints(adj))
            .when(!Window.all(d, 1), "dilation", ints(d))
            .when(groups != 1, "groups", i(groups))
            .when(activation != Act.NONE, "activation", act(activation))
            .when(noBias, "withoutBias");
    return NodeCall.Builder.of("node", spec.build(), x());
  }
}
