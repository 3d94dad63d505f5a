package dev.kiln.ops;

import static dev.kiln.ops.Args.act;
import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.ints;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Deconv2D;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * A transposed convolution ({@code @Deconv2D}) over {@code [N, C, H, W]}: MXNet's {@code
 * Deconvolution}, then the activation unless {@code Act.NONE}; parameters {@code <node>_weight}
 * {@code [C, filters / groups, kh, kw]} (input channels first, MXNet's layout) and, unless {@code
 * noBias}, {@code <node>_bias} {@code [filters]}. Generated code writes {@code
 * DeconvOp.filters(16).kernel(4, 4).stride(2, 2).pad(1, 1)}. Window attributes give one value per
 * spatial dimension; unset ones keep the annotation's defaults (stride 1, pad 0, outputPad 0, one
 * group, no activation, with a bias: MXNet's own default is no bias, so {@code no_bias} is always
 * written).
 *
 * <p><b>One filter per group.</b> MXNet 1.9.1's oneDNN deconvolution cannot run the backward pass
 * of a layer with one filter per group when the group's input channels are a multiple of 16 ("could
 * not create a primitive descriptor for a reorder primitive", measured for 16, 32, 48 and 64; the
 * usual last layer of an autoencoder, 16 or 32 channels to one). Such a layer (any one filter per
 * group) runs in float64 instead, between {@code Cast}s ({@code <node>_data_float64}, ..., {@code
 * <node>_out_float32}), where MXNet uses its own kernel: the same values, computed more exactly. A
 * dilation above 1 is refused there too, as that kernel gets it wrong (below).
 *
 * <p>A dilation above 1 is refused when oneDNN is off ({@code MXNET_MKLDNN_ENABLED=0}), where MXNet
 * 1.9.1 computes it wrongly. MXNet's oneDNN deconvolution relabels its weight's layout in place in
 * every pass, so the weight is one of the graph's {@code Graph.relabelledWeights()}: an array of
 * its own, never a view of the fused parameter array.
 *
 * <p>At compile time: {@code @Deconv2D}: MXNet's {@code Deconvolution} (a transposed convolution)
 * over {@code [N, C, H, W]}, then the activation unless {@code Act.NONE}.
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
public record DeconvOp(
    int filters,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    List<Integer> outputPad,
    List<Integer> dilation,
    int groups,
    Act activation,
    boolean noBias)
    implements LayerOp {
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
  public DeconvOp {
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
    return activation == Act.NONE
        ? "Deconvolution"
        : "Deconvolution+" + Activations.label(activation);
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

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
      if (TShape.isFree(size)) {
        int span = d[axis] * (k[axis] - 1) + 1;
        SizeExpr o =
            s.size(2 + axis).plus(-1).times(st[axis]).plus((long) span - 2L * p[axis] + adj[axis]);
        site.require(
            o,
            Requirement.Relation.AT_LEAST,
            SizeExpr.constant(1),
            "the output's " + Window.axisName(axis, SPATIAL) + " must not be empty");
        out.add(TShape.size(o));
        continue;
      }
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
        chain(DeconvOp.class, "filters", i(filters))
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

  /** {@code filters} output channels; set the kernel next. */
  public static DeconvOp filters(int filters) {
    return new DeconvOp(
        filters,
        List.of(),
        Defaults.ints(Deconv2D.class, "stride"),
        Defaults.ints(Deconv2D.class, "pad"),
        Defaults.ints(Deconv2D.class, "outputPad"),
        Defaults.ints(Deconv2D.class, "dilation"),
        Defaults.integer(Deconv2D.class, "groups"),
        Act.NONE,
        false);
  }

  /** A window of {@code sizes}, one per spatial dimension: {@code kernel(4, 4)}. */
  public DeconvOp kernel(int... sizes) {
    return new DeconvOp(
        filters, Window.of(sizes), stride, pad, outputPad, dilation, groups, activation, noBias);
  }

  /** Steps of {@code steps} between the input's positions in the output. */
  public DeconvOp stride(int... steps) {
    return new DeconvOp(
        filters, kernel, Window.of(steps), pad, outputPad, dilation, groups, activation, noBias);
  }

  /** {@code cut} rows and columns removed from each border of the output. */
  public DeconvOp pad(int... cut) {
    return new DeconvOp(
        filters, kernel, stride, Window.of(cut), outputPad, dilation, groups, activation, noBias);
  }

  /** {@code extra} rows and columns added at the bottom and right of the output. */
  public DeconvOp outputPad(int... extra) {
    return new DeconvOp(
        filters, kernel, stride, pad, Window.of(extra), dilation, groups, activation, noBias);
  }

  /** Window taps {@code spacing} apart, one per spatial dimension. */
  public DeconvOp dilation(int... spacing) {
    return new DeconvOp(
        filters, kernel, stride, pad, outputPad, Window.of(spacing), groups, activation, noBias);
  }

  /** Channels split into {@code groups} groups, each with its own filters. */
  public DeconvOp groups(int groups) {
    return new DeconvOp(
        filters, kernel, stride, pad, outputPad, dilation, groups, activation, noBias);
  }

  /** This layer followed by {@code activation}. */
  public DeconvOp activation(Act activation) {
    return new DeconvOp(
        filters, kernel, stride, pad, outputPad, dilation, groups, activation, noBias);
  }

  /** This layer without a bias. */
  public DeconvOp withoutBias() {
    return new DeconvOp(
        filters, kernel, stride, pad, outputPad, dilation, groups, activation, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("DeconvOp.filters(" + filters + ") has no kernel set");
    }
    refuseDilationOnTheNativeKernel(scope);
    boolean native64 = filters / groups == 1;
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(inputs.get(0), scope.param(ParamRole.WEIGHT)));
    if (!noBias) {
      keys.add("bias");
      args.add(scope.param(ParamRole.BIAS));
    }
    if (native64) {
      for (int i = 0; i < args.size(); i++) {
        args.set(i, cast(scope, args.get(i), keys.get(i), "float64"));
      }
    }
    Attrs attrs =
        Attrs.of(
            "num_filter",
            filters,
            "kernel",
            Window.tuple("kernel", kernel, kernel, 1),
            "stride",
            Window.tuple("stride", stride, kernel, 1),
            "pad",
            Window.tuple("pad", pad, kernel, 0),
            "adj",
            Window.tuple("outputPad", outputPad, kernel, 0),
            "dilate",
            Window.tuple("dilation", dilation, kernel, 1),
            "num_group",
            groups,
            "no_bias",
            noBias);
    Sym deconv = scope.op("Deconvolution", scope.node(), attrs, keys, args);
    if (native64) {
      deconv = cast(scope, deconv, "out", "float32");
    }
    return scope.activate(deconv, activation);
  }

  private static Sym cast(NodeScope scope, Sym x, String what, String type) {
    return scope.op(
        "Cast",
        scope.node() + "_" + what + "_" + type,
        Attrs.of("dtype", type),
        List.of("data"),
        List.of(x));
  }

  /**
   * MXNet 1.9.1's own transposed convolution (without oneDNN, or in float64) spreads a dilated
   * window wrongly (apache/mxnet#11203, fixed only after 1.9): refuse a dilation above 1 there
   * rather than give a second, wrong answer.
   */
  private void refuseDilationOnTheNativeKernel(NodeScope src) {
    if (dilation.stream().allMatch(d -> d == 1)) {
      return;
    }
    // One filter per group with a dilation is refused by checkAttributes (DilatedOneFilter).
    if (!ConvKernels.oneDnn()) {
      throw src.refuse(
          "dilation "
              + dilation
              + " needs MXNet's oneDNN deconvolution, but MXNET_MKLDNN_ENABLED=0 selects the "
              + "native one, which computes dilated transposed convolutions wrongly in MXNet "
              + "1.9.1 (apache/mxnet#11203); unset MXNET_MKLDNN_ENABLED or use dilation 1");
    }
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("Deconvolution", List.of(), DeconvOp::deconvolution)
          // mkldnn_deconvolution.cc:112 reorders the weight in inference; :142 and :159 relabel
          // the weight's (and its gradient's) dimensions in every pass.
          .natives(Native.of("Deconvolution").reorders(1).relabels(1));

  static Mapped deconvolution(FileAttrs a) {
    a.ignore("workspace", "cudnn_tune", "cudnn_off");
    List<Integer> kernel = a.tuple("kernel", List.of());
    if (kernel.size() != 2) {
      throw a.unsupported("kernel", "Kiln imports 2-D transposed convolutions");
    }
    a.require("layout", "NCHW", "Kiln computes channels first");
    if (!a.tuple("target_shape", List.of()).isEmpty()) {
      throw a.unsupported(
          "target_shape", "Kiln imports a transposed convolution's adj, not a target");
    }
    boolean noBias = a.bool("no_bias", true);
    Op op =
        new DeconvOp(
            a.integer("num_filter", 0),
            kernel,
            FileAttrs.orDefault(a.tuple("stride", List.of()), 1),
            FileAttrs.orDefault(a.tuple("pad", List.of()), 0),
            FileAttrs.orDefault(a.tuple("adj", List.of()), 0),
            FileAttrs.orDefault(a.tuple("dilate", List.of()), 1),
            a.integer("num_group", 1),
            Act.NONE,
            noBias);
    return new Mapped(op, Arg.weighted(noBias));
  }
}
