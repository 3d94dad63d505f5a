package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * A 2-D window pooling layer ({@code @MaxPool}, {@code @AvgPool}) over {@code [N, C, H, W]}:
 * MXNet's {@code Pooling} with {@code pooling_convention = valid} (average pooling counts padding
 * as zeros). Generated code writes {@code PoolSpec.max(2, 2)}. Attributes are {@code (height,
 * width)}; the stride defaults to the kernel (non-overlapping windows) and the padding to 0.
 *
 * @param type {@code max} or {@code avg}, MXNet's {@code pool_type}
 * @param kernelHeight window height
 * @param kernelWidth window width
 * @param strideHeight vertical step
 * @param strideWidth horizontal step
 * @param padHeight padding rows above and below
 * @param padWidth padding columns either side
 */
public record PoolSpec(
    String type,
    int kernelHeight,
    int kernelWidth,
    int strideHeight,
    int strideWidth,
    int padHeight,
    int padWidth)
    implements LayerOp {
  /** The largest value of each {@code height x width} window, moved by its own size. */
  public static PoolSpec max(int height, int width) {
    return new PoolSpec("max", height, width, height, width, 0, 0);
  }

  /** The mean of each {@code height x width} window, moved by its own size. */
  public static PoolSpec avg(int height, int width) {
    return new PoolSpec("avg", height, width, height, width, 0, 0);
  }

  /** Steps of {@code height} rows and {@code width} columns. */
  public PoolSpec stride(int height, int width) {
    return new PoolSpec(type, kernelHeight, kernelWidth, height, width, padHeight, padWidth);
  }

  /** {@code height} padding rows above and below, {@code width} columns either side. */
  public PoolSpec pad(int height, int width) {
    return new PoolSpec(type, kernelHeight, kernelWidth, strideHeight, strideWidth, height, width);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "Pooling",
        Attrs.of(
            "pool_type",
            type,
            "kernel",
            Attrs.tuple(kernelHeight, kernelWidth),
            "stride",
            Attrs.tuple(strideHeight, strideWidth),
            "pad",
            Attrs.tuple(padHeight, padWidth),
            "pooling_convention",
            "valid"),
        inputs.get(0));
  }
}
