package dev.kiln.runtime.infer;

import dev.kiln.runtime.graph.Shape;
import java.util.Arrays;

/**
 * One input or output of a {@link Predictor}: its name and its shape, with {@link Shape#BATCH} (-1)
 * in the one dimension that the batch size fills, and, for a model with free dimensions
 * ({@code @FreeDim}), a free entry ({@link Shape#isFree}) in each dimension whose size a call
 * chooses: an input's declared placeholder, whose name the predictor's {@link
 * dev.kiln.runtime.graph.Dimensions} know, or {@link Shape#FREE} in an output.
 *
 * @param name the input's or output's name (an MXNet variable or a model output)
 * @param shape the shape; exactly one dimension is {@link Shape#BATCH}
 */
public record Port(String name, Shape shape) {
  /** Checks that exactly one dimension is the batch and every other one is known or free. */
  public Port {
    int batches = 0;
    for (int d : shape.dims()) {
      if (d == Shape.BATCH) {
        batches++;
      } else if (d <= 0 && !Shape.isFree(d)) {
        throw new IllegalArgumentException(
            "'"
                + name
                + "' of shape "
                + shape
                + ": every dimension but the batch must be known or a free dimension");
      }
    }
    if (batches != 1) {
      throw new IllegalArgumentException(
          "'" + name + "' of shape " + shape + ": exactly one dimension must be the batch (-1)");
    }
  }

  /** The index of the batch dimension. */
  public int batchAxis() {
    int[] d = shape.dims();
    for (int i = 0; i < d.length; i++) {
      if (d[i] == Shape.BATCH) {
        return i;
      }
    }
    throw new AssertionError(shape);
  }

  /** Whether some dimension besides the batch is free: its size is known only in a call. */
  public boolean hasFree() {
    return Arrays.stream(shape.dims()).anyMatch(Shape::isFree);
  }

  /**
   * The shape as the Open Inference Protocol's metadata writes it: -1 for the batch and for every
   * free size, {@code [-1, 3, -1, -1]}.
   */
  public int[] openDims() {
    return Arrays.stream(shape.dims())
        .map(d -> d == Shape.BATCH || Shape.isFree(d) ? -1 : d)
        .toArray();
  }

  /**
   * The values one example takes: the product of every dimension but the batch.
   *
   * @throws IllegalStateException if a dimension is free (an example's size depends on the call)
   */
  public int exampleSize() {
    if (hasFree()) {
      throw new IllegalStateException(
          "'" + name + "' of shape " + shape + ": an example's size depends on its free sizes");
    }
    return (int) shape.withBatch(1).size();
  }

  /** The shape for {@code batch} examples (complete unless a dimension is free). */
  public Shape forBatch(int batch) {
    return shape.withBatch(batch);
  }

  /**
   * Whether {@code actual} is a shape this port takes: the same rank, and every dimension that is
   * neither the batch nor free the same (sizes the model requires of free dimensions are checked by
   * {@link dev.kiln.runtime.graph.Dimensions#sizes}).
   */
  public boolean accepts(Shape actual) {
    int[] want = shape.dims();
    int[] got = actual.dims();
    if (want.length != got.length) {
      return false;
    }
    for (int i = 0; i < want.length; i++) {
      if (want[i] > 0 ? got[i] != want[i] : got[i] < 1) {
        return false;
      }
    }
    return true;
  }
}
