package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.ArrayList;
import java.util.List;

/**
 * A transposed convolution ({@code @Deconv2D}) over {@code [N, C, H, W]}: MXNet's {@code
 * Deconvolution}, then the activation unless {@code Act.NONE}; parameters {@code <node>_weight}
 * {@code [C, filters / groups, kh, kw]} (input channels first, MXNet's layout) and, unless {@code
 * noBias}, {@code <node>_bias} {@code [filters]}. Generated code writes {@code
 * DeconvSpec.filters(16).kernel(4, 4).stride(2, 2).pad(1, 1)}. Window attributes give one value per
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
 * every pass, so the weight is one of the graph's {@link Graph#relabelledWeights()}: an array of
 * its own, never a view of the fused parameter array.
 *
 * @param filters output channels ({@code num_filter})
 * @param kernel window size per spatial dimension
 * @param stride step per dimension; empty for 1
 * @param pad rows and columns cut from each border per dimension; empty for 0
 * @param outputPad rows and columns added at the end per dimension ({@code adj}); empty for 0
 * @param dilation spacing of the window's taps per dimension; empty for 1
 * @param groups channel groups ({@code num_group})
 * @param activation applied after the layer, or {@link Act#NONE}
 * @param noBias whether the layer has no bias
 */
public record DeconvSpec(
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
  /** Copies the window attributes. */
  public DeconvSpec {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
    outputPad = List.copyOf(outputPad);
    dilation = List.copyOf(dilation);
  }

  /** {@code filters} output channels; set the kernel next. */
  public static DeconvSpec filters(int filters) {
    List<Integer> none = List.of();
    return new DeconvSpec(filters, none, none, none, none, none, 1, Act.NONE, false);
  }

  /** A window of {@code sizes}, one per spatial dimension: {@code kernel(4, 4)}. */
  public DeconvSpec kernel(int... sizes) {
    return new DeconvSpec(
        filters,
        WindowAttrs.of(sizes),
        stride,
        pad,
        outputPad,
        dilation,
        groups,
        activation,
        noBias);
  }

  /** Steps of {@code steps} between the input's positions in the output. */
  public DeconvSpec stride(int... steps) {
    return new DeconvSpec(
        filters,
        kernel,
        WindowAttrs.of(steps),
        pad,
        outputPad,
        dilation,
        groups,
        activation,
        noBias);
  }

  /** {@code cut} rows and columns removed from each border of the output. */
  public DeconvSpec pad(int... cut) {
    return new DeconvSpec(
        filters,
        kernel,
        stride,
        WindowAttrs.of(cut),
        outputPad,
        dilation,
        groups,
        activation,
        noBias);
  }

  /** {@code extra} rows and columns added at the bottom and right of the output. */
  public DeconvSpec outputPad(int... extra) {
    return new DeconvSpec(
        filters, kernel, stride, pad, WindowAttrs.of(extra), dilation, groups, activation, noBias);
  }

  /** Window taps {@code spacing} apart, one per spatial dimension. */
  public DeconvSpec dilation(int... spacing) {
    return new DeconvSpec(
        filters,
        kernel,
        stride,
        pad,
        outputPad,
        WindowAttrs.of(spacing),
        groups,
        activation,
        noBias);
  }

  /** Channels split into {@code groups} groups, each with its own filters. */
  public DeconvSpec groups(int groups) {
    return new DeconvSpec(
        filters, kernel, stride, pad, outputPad, dilation, groups, activation, noBias);
  }

  /** This layer followed by {@code activation}. */
  public DeconvSpec activation(Act activation) {
    return new DeconvSpec(
        filters, kernel, stride, pad, outputPad, dilation, groups, activation, noBias);
  }

  /** This layer without a bias. */
  public DeconvSpec withoutBias() {
    return new DeconvSpec(
        filters, kernel, stride, pad, outputPad, dilation, groups, activation, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("DeconvSpec.filters(" + filters + ") has no kernel set");
    }
    refuseDilationOnTheNativeKernel(scope.source());
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
            WindowAttrs.tuple("kernel", kernel, kernel, 1),
            "stride",
            WindowAttrs.tuple("stride", stride, kernel, 1),
            "pad",
            WindowAttrs.tuple("pad", pad, kernel, 0),
            "adj",
            WindowAttrs.tuple("outputPad", outputPad, kernel, 0),
            "dilate",
            WindowAttrs.tuple("dilation", dilation, kernel, 1),
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
  private void refuseDilationOnTheNativeKernel(NodeSource src) {
    if (dilation.stream().allMatch(d -> d == 1)) {
      return;
    }
    if (filters / groups == 1) {
      throw new ModelException(
          src,
          src
              + ": dilation "
              + dilation
              + " with one filter per group runs on MXNet's own deconvolution kernel (oneDNN's "
              + "fails in backward for such a layer), which computes dilated transposed "
              + "convolutions wrongly in MXNet 1.9.1 (apache/mxnet#11203); use dilation 1 or more "
              + "filters",
          null);
    }
    if (!ConvKernels.oneDnn()) {
      throw new ModelException(
          src,
          src
              + ": dilation "
              + dilation
              + " needs MXNet's oneDNN deconvolution, but MXNET_MKLDNN_ENABLED=0 selects the "
              + "native one, which computes dilated transposed convolutions wrongly in MXNet "
              + "1.9.1 (apache/mxnet#11203); unset MXNET_MKLDNN_ENABLED or use dilation 1",
          null);
    }
  }
}
