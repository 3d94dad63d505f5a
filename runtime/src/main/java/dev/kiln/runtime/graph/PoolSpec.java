package dev.kiln.runtime.graph;

/**
 * The window of a 2-D pooling layer ({@code @MaxPool}, {@code @AvgPool}), as generated code passes
 * it to {@link GraphBuilder#maxPool} and {@link GraphBuilder#avgPool}: {@code PoolSpec.kernel(2,
 * 2)}. Attributes are {@code (height, width)}; the stride defaults to the kernel (non-overlapping
 * windows) and the padding to 0.
 *
 * @param kernelHeight window height
 * @param kernelWidth window width
 * @param strideHeight vertical step
 * @param strideWidth horizontal step
 * @param padHeight padding rows above and below
 * @param padWidth padding columns either side
 */
public record PoolSpec(
    int kernelHeight,
    int kernelWidth,
    int strideHeight,
    int strideWidth,
    int padHeight,
    int padWidth) {
  /** A {@code height x width} window moved by its own size. */
  public static PoolSpec kernel(int height, int width) {
    return new PoolSpec(height, width, height, width, 0, 0);
  }

  /** Steps of {@code height} rows and {@code width} columns. */
  public PoolSpec stride(int height, int width) {
    return new PoolSpec(kernelHeight, kernelWidth, height, width, padHeight, padWidth);
  }

  /** {@code height} padding rows above and below, {@code width} columns either side. */
  public PoolSpec pad(int height, int width) {
    return new PoolSpec(kernelHeight, kernelWidth, strideHeight, strideWidth, height, width);
  }
}
