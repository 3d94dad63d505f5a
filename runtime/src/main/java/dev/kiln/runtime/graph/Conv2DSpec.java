package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.ArrayList;
import java.util.List;

/**
 * A 2-D convolution ({@code @Conv2D}) over {@code [N, C, H, W]}: MXNet's {@code Convolution}, then
 * the activation unless {@code Act.NONE}; parameters {@code <node>_weight} {@code [filters, C, kh,
 * kw]} and, unless {@code noBias}, {@code <node>_bias} {@code [filters]}. Generated code writes
 * {@code Conv2DSpec.filters(20).kernel(5, 5).stride(2, 2)}. Window attributes are {@code (height,
 * width)}; unset attributes keep the annotation's defaults (stride 1, pad 0, dilation 1, no
 * activation, with a bias).
 *
 * @param filters output channels ({@code num_filter})
 * @param kernelHeight window height
 * @param kernelWidth window width
 * @param strideHeight vertical step
 * @param strideWidth horizontal step
 * @param padHeight zero rows added above and below
 * @param padWidth zero columns added left and right
 * @param dilationHeight vertical spacing of the window's taps
 * @param dilationWidth horizontal spacing of the window's taps
 * @param activation applied after the layer, or {@link Act#NONE}
 * @param noBias whether the layer has no bias
 */
public record Conv2DSpec(
    int filters,
    int kernelHeight,
    int kernelWidth,
    int strideHeight,
    int strideWidth,
    int padHeight,
    int padWidth,
    int dilationHeight,
    int dilationWidth,
    Act activation,
    boolean noBias)
    implements LayerOp {
  /** {@code filters} output channels with a 1x1 window; set the kernel next. */
  public static Conv2DSpec filters(int filters) {
    return new Conv2DSpec(filters, 1, 1, 1, 1, 0, 0, 1, 1, Act.NONE, false);
  }

  /** A {@code height x width} window. */
  public Conv2DSpec kernel(int height, int width) {
    return new Conv2DSpec(
        filters,
        height,
        width,
        strideHeight,
        strideWidth,
        padHeight,
        padWidth,
        dilationHeight,
        dilationWidth,
        activation,
        noBias);
  }

  /** Steps of {@code height} rows and {@code width} columns. */
  public Conv2DSpec stride(int height, int width) {
    return new Conv2DSpec(
        filters,
        kernelHeight,
        kernelWidth,
        height,
        width,
        padHeight,
        padWidth,
        dilationHeight,
        dilationWidth,
        activation,
        noBias);
  }

  /** {@code height} zero rows above and below, {@code width} zero columns either side. */
  public Conv2DSpec pad(int height, int width) {
    return new Conv2DSpec(
        filters,
        kernelHeight,
        kernelWidth,
        strideHeight,
        strideWidth,
        height,
        width,
        dilationHeight,
        dilationWidth,
        activation,
        noBias);
  }

  /** Window taps {@code height} rows and {@code width} columns apart. */
  public Conv2DSpec dilation(int height, int width) {
    return new Conv2DSpec(
        filters,
        kernelHeight,
        kernelWidth,
        strideHeight,
        strideWidth,
        padHeight,
        padWidth,
        height,
        width,
        activation,
        noBias);
  }

  /** This layer followed by {@code activation}. */
  public Conv2DSpec activation(Act activation) {
    return new Conv2DSpec(
        filters,
        kernelHeight,
        kernelWidth,
        strideHeight,
        strideWidth,
        padHeight,
        padWidth,
        dilationHeight,
        dilationWidth,
        activation,
        noBias);
  }

  /** This layer without a bias. */
  public Conv2DSpec withoutBias() {
    return new Conv2DSpec(
        filters,
        kernelHeight,
        kernelWidth,
        strideHeight,
        strideWidth,
        padHeight,
        padWidth,
        dilationHeight,
        dilationWidth,
        activation,
        true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(inputs.get(0), scope.param(ParamRole.WEIGHT)));
    if (!noBias) {
      keys.add("bias");
      args.add(scope.param(ParamRole.BIAS));
    }
    Sym conv =
        scope.op(
            "Convolution",
            scope.node(),
            Attrs.of(
                "num_filter",
                filters,
                "kernel",
                Attrs.tuple(kernelHeight, kernelWidth),
                "stride",
                Attrs.tuple(strideHeight, strideWidth),
                "pad",
                Attrs.tuple(padHeight, padWidth),
                "dilate",
                Attrs.tuple(dilationHeight, dilationWidth),
                "no_bias",
                noBias),
            keys,
            args);
    return scope.activate(conv, activation);
  }
}
