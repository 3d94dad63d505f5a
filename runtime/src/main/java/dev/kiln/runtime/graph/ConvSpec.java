package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.ArrayList;
import java.util.List;

/**
 * A convolution ({@code @Conv1D}, {@code @Conv2D}) over {@code [N, C, spatial...]}: MXNet's {@code
 * Convolution}, then the activation unless {@code Act.NONE}; parameters {@code <node>_weight}
 * {@code [filters, C / groups, k...]} and, unless {@code noBias}, {@code <node>_bias} {@code
 * [filters]}. Generated code writes {@code ConvSpec.filters(20).kernel(5, 5).stride(2, 2)}: the
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
 * @param filters output channels ({@code num_filter})
 * @param kernel window size per spatial dimension
 * @param stride window step per dimension; empty for 1
 * @param pad zeros added on each side per dimension; empty for 0
 * @param dilation spacing of the window's taps per dimension; empty for 1
 * @param groups channel groups ({@code num_group})
 * @param activation applied after the layer, or {@link Act#NONE}
 * @param noBias whether the layer has no bias
 */
public record ConvSpec(
    int filters,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    List<Integer> dilation,
    int groups,
    Act activation,
    boolean noBias)
    implements LayerOp {
  /** Copies the window attributes. */
  public ConvSpec {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
    dilation = List.copyOf(dilation);
  }

  /** {@code filters} output channels; set the kernel next. */
  public static ConvSpec filters(int filters) {
    return new ConvSpec(filters, List.of(), List.of(), List.of(), List.of(), 1, Act.NONE, false);
  }

  /** A window of {@code sizes}, one per spatial dimension: {@code kernel(5, 5)} in 2-D. */
  public ConvSpec kernel(int... sizes) {
    return new ConvSpec(
        filters, WindowAttrs.of(sizes), stride, pad, dilation, groups, activation, noBias);
  }

  /** Steps of {@code steps}, one per spatial dimension. */
  public ConvSpec stride(int... steps) {
    return new ConvSpec(
        filters, kernel, WindowAttrs.of(steps), pad, dilation, groups, activation, noBias);
  }

  /** {@code zeros} added on each side, one count per spatial dimension. */
  public ConvSpec pad(int... zeros) {
    return new ConvSpec(
        filters, kernel, stride, WindowAttrs.of(zeros), dilation, groups, activation, noBias);
  }

  /** Window taps {@code spacing} apart, one per spatial dimension. */
  public ConvSpec dilation(int... spacing) {
    return new ConvSpec(
        filters, kernel, stride, pad, WindowAttrs.of(spacing), groups, activation, noBias);
  }

  /** Channels split into {@code groups} groups, each convolved with its own filters. */
  public ConvSpec groups(int groups) {
    return new ConvSpec(filters, kernel, stride, pad, dilation, groups, activation, noBias);
  }

  /** This layer followed by {@code activation}. */
  public ConvSpec activation(Act activation) {
    return new ConvSpec(filters, kernel, stride, pad, dilation, groups, activation, noBias);
  }

  /** This layer without a bias. */
  public ConvSpec withoutBias() {
    return new ConvSpec(filters, kernel, stride, pad, dilation, groups, activation, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("ConvSpec.filters(" + filters + ") has no kernel set");
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
                WindowAttrs.tuple("kernel", kernel, kernel, 1),
                "stride",
                WindowAttrs.tuple("stride", stride, kernel, 1),
                "pad",
                WindowAttrs.tuple("pad", pad, kernel, 0),
                "dilate",
                WindowAttrs.tuple("dilation", dilation, kernel, 1)));
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
}
