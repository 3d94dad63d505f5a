package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * A window pooling layer ({@code @MaxPool}, {@code @AvgPool}) over {@code [N, C, W]} or {@code [N,
 * C, H, W]}: MXNet's {@code Pooling} with {@code pooling_convention = valid} (average pooling
 * counts padding as zeros, MXNet's default). Generated code writes {@code PoolSpec.max(2, 2)}: the
 * kernel's length is the number of spatial dimensions, and stride and pad, when set, give one value
 * per dimension ({@code (height, width)} in 2-D). The stride defaults to the kernel
 * (non-overlapping windows) and the padding to 0.
 *
 * @param type {@code max} or {@code avg}, MXNet's {@code pool_type}
 * @param kernel window size per spatial dimension
 * @param stride window step per dimension; empty for the kernel's
 * @param pad padding on each side per dimension; empty for 0
 */
public record PoolSpec(String type, List<Integer> kernel, List<Integer> stride, List<Integer> pad)
    implements LayerOp {
  /** Copies the window attributes. */
  public PoolSpec {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
  }

  /** The largest value of each window of {@code sizes}, moved by its own size. */
  public static PoolSpec max(int... sizes) {
    return new PoolSpec("max", WindowAttrs.of(sizes), List.of(), List.of());
  }

  /** The mean of each window of {@code sizes}, moved by its own size. */
  public static PoolSpec avg(int... sizes) {
    return new PoolSpec("avg", WindowAttrs.of(sizes), List.of(), List.of());
  }

  /** Steps of {@code steps}, one per spatial dimension. */
  public PoolSpec stride(int... steps) {
    return new PoolSpec(type, kernel, WindowAttrs.of(steps), pad);
  }

  /** {@code sizes} padding on each side, one per spatial dimension. */
  public PoolSpec pad(int... sizes) {
    return new PoolSpec(type, kernel, stride, WindowAttrs.of(sizes));
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("PoolSpec." + type + "() has no kernel");
    }
    return scope.op(
        "Pooling",
        Attrs.of(
            "pool_type",
            type,
            "kernel",
            WindowAttrs.tuple("kernel", kernel, kernel, 1),
            "stride",
            WindowAttrs.tuple("stride", stride.isEmpty() ? kernel : stride, kernel, 1),
            "pad",
            WindowAttrs.tuple("pad", pad, kernel, 0),
            "pooling_convention",
            "valid"),
        inputs.get(0));
  }
}
