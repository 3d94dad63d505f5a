package dev.kiln.runtime.graph;

import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Sym;
import java.util.List;
import java.util.Locale;

/**
 * A window pooling layer ({@code @MaxPool}, {@code @AvgPool}) over {@code [N, C, W]} or {@code [N,
 * C, H, W]}: MXNet's {@code Pooling} (average pooling counts padding as zeros, MXNet's default).
 * Generated code writes {@code PoolSpec.max(2, 2)}: the kernel's length is the number of spatial
 * dimensions, and stride and pad, when set, give one value per dimension ({@code (height, width)}
 * in 2-D). The stride defaults to the kernel (non-overlapping windows), the padding to 0 and the
 * convention to {@link PoolConvention#VALID}.
 *
 * <p><b>Average pooling under the full convention</b> runs in float64 between {@code Cast}s ({@code
 * <node>_data_float64}, {@code <node>_out_float32}), where MXNet uses its own kernel in both
 * passes. In float32 MXNet 1.9.1 runs the forward pass on its own kernel (oneDNN divides a last
 * window that reaches past the padded input by the whole kernel, MXNet's kernel by the part within,
 * so MXNet keeps such pools off oneDNN) but decides the backward pass on the output's size, not the
 * input's, and runs it on oneDNN whenever the output's size divides evenly: the gradients of such a
 * last window are then those of another average (measured against finite differences, {@code
 * PoolingTest}).
 *
 * @param type {@code max} or {@code avg}, MXNet's {@code pool_type}
 * @param kernel window size per spatial dimension
 * @param stride window step per dimension; empty for the kernel's
 * @param pad padding on each side per dimension; empty for 0
 * @param convention how the windows along a dimension are counted
 */
public record PoolSpec(
    String type,
    List<Integer> kernel,
    List<Integer> stride,
    List<Integer> pad,
    PoolConvention convention)
    implements LayerOp {
  /** Copies the window attributes. */
  public PoolSpec {
    kernel = List.copyOf(kernel);
    stride = List.copyOf(stride);
    pad = List.copyOf(pad);
  }

  /** The largest value of each window of {@code sizes}, moved by its own size. */
  public static PoolSpec max(int... sizes) {
    return new PoolSpec("max", WindowAttrs.of(sizes), List.of(), List.of(), PoolConvention.VALID);
  }

  /** The mean of each window of {@code sizes}, moved by its own size. */
  public static PoolSpec avg(int... sizes) {
    return new PoolSpec("avg", WindowAttrs.of(sizes), List.of(), List.of(), PoolConvention.VALID);
  }

  /** Steps of {@code steps}, one per spatial dimension. */
  public PoolSpec stride(int... steps) {
    return new PoolSpec(type, kernel, WindowAttrs.of(steps), pad, convention);
  }

  /** {@code sizes} padding on each side, one per spatial dimension. */
  public PoolSpec pad(int... sizes) {
    return new PoolSpec(type, kernel, stride, WindowAttrs.of(sizes), convention);
  }

  /** Windows counted by {@code convention}. */
  public PoolSpec convention(PoolConvention convention) {
    return new PoolSpec(type, kernel, stride, pad, convention);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (kernel.isEmpty()) {
      throw new IllegalStateException("PoolSpec." + type + "() has no kernel");
    }
    boolean native64 = type.equals("avg") && convention == PoolConvention.FULL;
    Sym x = native64 ? cast(scope, inputs.get(0), "data", "float64") : inputs.get(0);
    Sym pool =
        scope.op(
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
                convention.name().toLowerCase(Locale.ROOT)),
            x);
    return native64 ? cast(scope, pool, "out", "float32") : pool;
  }

  private static Sym cast(NodeScope scope, Sym x, String what, String type) {
    return scope.op(
        "Cast",
        scope.node() + "_" + what + "_" + type,
        Attrs.of("dtype", type),
        List.of("data"),
        List.of(x));
  }
}
