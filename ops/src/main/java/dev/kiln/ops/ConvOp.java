package dev.kiln.ops;

import static dev.kiln.ops.Args.act;
import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.ints;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv1D;
import dev.kiln.annotations.Conv2D;
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
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A convolution ({@code @Conv1D}, {@code @Conv2D}) over {@code [N, C, spatial...]}: MXNet's {@code
 * Convolution}, then the activation unless {@code Act.NONE}; parameters {@code <node>_weight}
 * {@code [filters, C / groups, k...]} and, unless {@code noBias}, {@code <node>_bias} {@code
 * [filters]}. Generated code writes {@code ConvOp.filters(20).kernel(5, 5).stride(2, 2)}: the
 * kernel's length is the number of spatial dimensions, and stride, pad and dilation, when set, give
 * one value per dimension ({@code (height, width)} in 2-D). Unset attributes keep the annotations'
 * defaults (stride 1, pad 0, dilation 1, one group, no activation, with a bias).
 *
 * <p><b>1-D output layout.</b> A 1-D convolution ends with an identity {@code Reshape} ({@code
 * <node>_default_layout}), whose oneDNN kernel writes the result in the default row-major layout.
 * MXNet 1.9.1's oneDNN 1-D convolution leaves its output in a blocked layout, on which a batch norm
 * (whose oneDNN kernel takes only 4-D inputs, so the fallback runs) fails its backward pass ({@code
 * Check failed: !is_view}, measured for every axis; {@code regressions/Conv1dBatchNorm} in the
 * differential suite).
 *
 * <p>At compile time: {@code @Conv1D} and {@code @Conv2D}: MXNet's {@code Convolution} over {@code
 * [N, C, spatial...]} (one or two spatial dimensions; three for an imported ONNX {@code Conv}),
 * then the activation unless {@code Act.NONE}. Window attributes hold one value (for every spatial
 * dimension) or one per dimension, as written.
 *
 * @param spatial the spatial dimensions: 1 or 2, or 3 (imports only)
 * @param filters output channels
 * @param kernel window size
 * @param stride window step
 * @param pad zeros added on each side
 * @param dilation spacing of the window's taps
 * @param groups channel groups
 * @param activation applied after the layer, or {@code Act.NONE}
 * @param noBias whether the layer has no bias
 */
public record ConvOp(
    int spatial,
    int filters,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    List<Integer> dilation,
    int groups,
    Act activation,
    boolean noBias)
    implements LayerOp {
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
  public ConvOp {
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
    return spatial == 1 ? "Conv1D" : spatial == 2 ? "Conv2D" : "Conv3D";
  }

  @Override
  public String mxnetOp() {
    return activation == Act.NONE ? "Convolution" : "Convolution+" + Activations.label(activation);
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

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
    site.requireRank(
        layer,
        2 + spatial,
        spatial == 1 ? "[N, C, W]" : spatial == 2 ? "[N, C, H, W]" : "[N, C, D, H, W]");
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
        chain(ConvOp.class, "filters", i(filters))
            .then("kernel", ints(Window.expand(kernel, spatial)))
            .when(!Window.all(st, 1), "stride", ints(st))
            .when(!Window.all(p, 0), "pad", ints(p))
            .when(!Window.all(d, 1), "dilation", ints(d))
            .when(groups != 1, "groups", i(groups))
            .when(activation != Act.NONE, "activation", act(activation))
            .when(noBias, "withoutBias");
    return NodeCall.Builder.of("node", spec.build(), x());
  }

  /** {@code filters} output channels; set the kernel next. */
  public static ConvOp filters(int filters) {
    return new ConvOp(
        0,
        filters,
        List.of(),
        Defaults.ints(Conv2D.class, "stride"),
        Defaults.ints(Conv2D.class, "pad"),
        Defaults.ints(Conv2D.class, "dilation"),
        Defaults.integer(Conv2D.class, "groups"),
        Act.NONE,
        false);
  }

  /** A window of {@code sizes}, one per spatial dimension: {@code kernel(5, 5)} in 2-D. */
  public ConvOp kernel(int... sizes) {
    return new ConvOp(
        sizes.length, filters, Window.of(sizes), stride, pad, dilation, groups, activation, noBias);
  }

  /** Steps of {@code steps}, one per spatial dimension. */
  public ConvOp stride(int... steps) {
    return new ConvOp(
        spatial, filters, kernel, Window.of(steps), pad, dilation, groups, activation, noBias);
  }

  /** {@code zeros} added on each side, one count per spatial dimension. */
  public ConvOp pad(int... zeros) {
    return new ConvOp(
        spatial, filters, kernel, stride, Window.of(zeros), dilation, groups, activation, noBias);
  }

  /** Window taps {@code spacing} apart, one per spatial dimension. */
  public ConvOp dilation(int... spacing) {
    return new ConvOp(
        spatial, filters, kernel, stride, pad, Window.of(spacing), groups, activation, noBias);
  }

  /** Channels split into {@code groups} groups, each convolved with its own filters. */
  public ConvOp groups(int groups) {
    return new ConvOp(spatial, filters, kernel, stride, pad, dilation, groups, activation, noBias);
  }

  /** This layer followed by {@code activation}. */
  public ConvOp activation(Act activation) {
    return new ConvOp(spatial, filters, kernel, stride, pad, dilation, groups, activation, noBias);
  }

  /** This layer without a bias. */
  public ConvOp withoutBias() {
    return new ConvOp(spatial, filters, kernel, stride, pad, dilation, groups, activation, true);
  }

  /**
   * MXNet's {@code Convolution}, then the activation. A 1-D convolution ends with an identity
   * {@code Reshape} ({@code <node>_default_layout}), whose oneDNN kernel writes the result in the
   * default row-major layout: MXNet 1.9.1's oneDNN 1-D convolution leaves its output in a blocked
   * layout, on which a batch norm (whose oneDNN kernel takes only 4-D inputs, so the fallback runs)
   * fails its backward pass ({@code Check failed: !is_view}, measured for every axis; {@code
   * regressions/Conv1dBatchNorm} in the differential suite).
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("ConvOp.filters(" + filters + ") has no kernel set");
    }
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(inputs.get(0), scope.param(ParamRole.WEIGHT)));
    if (!noBias) {
      keys.add("bias");
      args.add(scope.param(ParamRole.BIAS));
    }
    List<Object> attrs =
        new ArrayList<>(
            List.of(
                "num_filter",
                filters,
                "kernel",
                Window.tuple("kernel", kernel, kernel, 1),
                "stride",
                Window.tuple("stride", stride, kernel, 1),
                "pad",
                Window.tuple("pad", pad, kernel, 0),
                "dilate",
                Window.tuple("dilation", dilation, kernel, 1)));
    if (groups != 1) {
      attrs.addAll(List.of("num_group", groups));
    }
    attrs.addAll(List.of("no_bias", noBias));
    Sym conv = scope.op("Convolution", scope.node(), Attrs.of(attrs.toArray()), keys, args);
    Sym out = scope.activate(conv, activation);
    if (kernel.size() == 1) {
      out =
          scope.op(
              "Reshape",
              scope.node() + "_default_layout",
              Attrs.of("shape", "(0,0,0)"),
              List.of("data"),
              List.of(out));
    }
    return out;
  }

  /** How the layer is read: its annotations and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(CONV1D_READER, CONV2D_READER)
          .file("Convolution", List.of(), ConvOp::convolution)
          // mkldnn_convolution.cc:431 reorders the weight in inference.
          .natives(Native.of("Convolution").reorders(1).bf16(Native.Bf16.LOW));

  static Mapped convolution(FileAttrs a) {
    a.ignore("workspace", "cudnn_tune", "cudnn_off");
    List<Integer> kernel = a.tuple("kernel", List.of());
    int spatial = kernel.size();
    if (spatial < 1 || spatial > 2) {
      throw a.unsupported("kernel", "Kiln imports 1-D and 2-D convolutions");
    }
    a.require("layout", spatial == 1 ? "NCW" : "NCHW", "Kiln computes channels first");
    boolean noBias = a.bool("no_bias", false);
    Op op =
        new ConvOp(
            spatial,
            a.integer("num_filter", 0),
            kernel,
            FileAttrs.orDefault(a.tuple("stride", List.of()), 1),
            FileAttrs.orDefault(a.tuple("pad", List.of()), 0),
            FileAttrs.orDefault(a.tuple("dilate", List.of()), 1),
            a.integer("num_group", 1),
            Act.NONE,
            noBias);
    return new Mapped(op, Arg.weighted(noBias));
  }
}
